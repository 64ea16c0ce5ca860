# docs/lesson.schema.json stays in step with the C schema (see tests/lint/schema_check.py).
. tests/lib.sh
python3 -W ignore tests/lint/schema_check.py
