"""docs/lesson.schema.json in step with the loader: every shipped lesson validates,
broken lesson files are rejected, and the schema knows exactly the keys of the libcyaml
tables in src/lesson/schema.c. Prints TAP lines (run by tests/cli/schema.sh)."""
import glob
import json
import re
import sys

import jsonschema
import yaml

n = 0
failed = 0


def tap(good, name, detail=""):
    global n, failed
    n += 1
    print(("ok %d - %s" if good else "not ok %d - %s") % (n, name))
    if not good:
        failed += 1
        for line in str(detail).splitlines()[:12]:
            print("#   " + line)


schema = json.load(open("docs/lesson.schema.json", encoding="utf-8"))
jsonschema.Draft7Validator.check_schema(schema)
validator = jsonschema.Draft7Validator(schema)
tap(True, "the schema is a valid draft-07 JSON Schema")

lessons = sorted(glob.glob("lessons/*/*.yaml"))
tap(len(lessons) > 0, "shipped lessons found")
for path in lessons:
    doc = yaml.safe_load(open(path, encoding="utf-8"))
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    tap(not errors, "%s validates" % path,
        "\n".join("%s: %s" % ("/".join(map(str, e.absolute_path)), e.message[:200]) for e in errors))

# Broken files whose faults a schema can express: the schema rejects each, as lint does.
for name in ["title-mapping", "steps-number", "steps-empty", "unknown-key", "missing-key",
             "bad-enum", "step-kinds", "wrong-types", "question-fields", "compute-source",
             "predict-fields"]:
    path = "tests/lint/%s.yaml" % name
    doc = yaml.safe_load(open(path, encoding="utf-8"))
    tap(not validator.is_valid(doc), "%s is rejected by the schema" % path)


def property_names(node, out):
    if isinstance(node, dict):
        for key, value in node.get("properties", {}).items():
            out.add(key)
        for value in node.values():
            property_names(value, out)
    elif isinstance(node, list):
        for value in node:
            property_names(value, out)
    return out


c_keys = set(re.findall(r'CYAML_FIELD_\w+\(\s*"(\w+)"', open("src/lesson/schema.c").read()))
json_keys = property_names(schema, set())
tap(c_keys == json_keys, "the same keys in src/lesson/schema.c and the JSON Schema",
    "only in C: %s\nonly in JSON: %s" % (sorted(c_keys - json_keys), sorted(json_keys - c_keys)))
sys.exit(0)
