// bert-tokenizer 1.1.8's own BertTokenizer (Apache-2.0; tests/vocab/bert-tokenizer), on
// one JSON string a line from stdin; prints [CLS] + its ids + [SEP] as one JSON array a
// line. It differs from BERT's tokenizer outside plain ASCII text (no split around CJK
// characters, NFKC, a shorter punctuation list, runs of spaces as [UNK]), so the tests
// give it only sentences where the two algorithms agree by construction.
// Usage: node bert_npm_ref.js DIR_WITH_index.js < sentences.jsonl
const path = require('path');
const dir = path.resolve(process.argv[2]);
const { BertTokenizer } = require(path.join(dir, 'index.js'));
const tok = new BertTokenizer(path.join(dir, 'vocab.json'), true);
const lines = require('fs').readFileSync(0, 'utf-8').split('\n');
for (const l of lines)
  if (l.length) console.log(JSON.stringify([101].concat(tok.tokenize(JSON.parse(l)), [102])));
