// The reference for GPT-2's tokenizer: gpt-3-encoder's encode() (MIT; tests/vocab), on
// one JSON string a line from stdin; prints one JSON array of ids a line.
// Usage: node gpt2_ref.js DIR_WITH_Encoder.js < sentences.jsonl
const path = require('path');
const { encode } = require(path.resolve(process.argv[2], 'Encoder.js'));
const lines = require('fs').readFileSync(0, 'utf-8').split('\n');
for (const l of lines) if (l.length) console.log(JSON.stringify(encode(JSON.parse(l))));
