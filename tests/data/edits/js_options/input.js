'use strict';

const fs = require('fs');
const path = require('path');

function listFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      out.push(...listFiles(full));
    } else if (entry.isFile()) {
      out.push(full);
    }
  }
  return out;
}

function countLines(file) {
  const text = fs.readFileSync(file, 'utf8');
  if (text.length === 0) return 0;
  const lines = text.split('\n').length;
  return text.endsWith('\n') ? lines - 1 : lines;
}

function summarize(dir) {
  const byExt = new Map();
  for (const file of listFiles(dir)) {
    const ext = path.extname(file) || '(none)';
    const entry = byExt.get(ext) || { files: 0, lines: 0 };
    entry.files += 1;
    entry.lines += countLines(file);
    byExt.set(ext, entry);
  }
  return [...byExt.entries()].sort((a, b) => b[1].lines - a[1].lines);
}

function formatTable(rows) {
  const width = Math.max(9, ...rows.map(([ext]) => ext.length));
  const lines = [`${'extension'.padEnd(width)}  files  lines`];
  for (const [ext, { files, lines: n }] of rows) {
    lines.push(`${ext.padEnd(width)}  ${String(files).padStart(5)}  ${String(n).padStart(5)}`);
  }
  return lines.join('\n');
}

function main(argv) {
  const dir = argv[2] || '.';
  const rows = summarize(dir);
  console.log(formatTable(rows));
  return 0;
}

module.exports = { listFiles, countLines, summarize, formatTable };

if (require.main === module) {
  process.exitCode = main(process.argv);
}
