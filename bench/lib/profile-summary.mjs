// Summarises a V8 .cpuprofile (from `BENCH_PROFILE=dir npm run bench -- NAME`, which starts the
// portal with --cpu-prof): the functions with the most self time, and the portal's own
// functions by total (inclusive) time. Usage: node bench/lib/profile-summary.mjs FILE [top]

import fs from 'node:fs';

const [file, topArg] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node bench/lib/profile-summary.mjs FILE.cpuprofile [top]\n');
  process.exit(2);
}
const top = Number(topArg ?? 25);
const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const interval = new Map();
for (let i = 0; i < profile.samples.length; i++) {
  interval.set(profile.samples[i], (interval.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
}
const totalUs = [...interval.values()].reduce((a, b) => a + b, 0);
const label = (node) => {
  const f = node.callFrame;
  const where = f.url ? f.url.replace(/^.*\/(node_modules|dist)\//, '$1/') : '';
  return `${f.functionName || '(anonymous)'} ${where}:${f.lineNumber + 1}`;
};

const self = new Map();
for (const node of nodes.values()) self.set(label(node), (self.get(label(node)) ?? 0) + (interval.get(node.id) ?? 0));

// Inclusive time: each node's own time plus its children's, counted once per label per stack.
const parent = new Map();
for (const node of nodes.values()) for (const child of node.children ?? []) parent.set(child, node.id);
const inclusive = new Map();
for (const [id, us] of interval) {
  const seen = new Set();
  for (let at = id; at !== undefined; at = parent.get(at)) {
    const name = label(nodes.get(at));
    if (seen.has(name)) continue;
    seen.add(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + us);
  }
}
const pct = (us) => `${((100 * us) / totalUs).toFixed(1).padStart(5)}%`;
process.stdout.write(`profile ${file}: ${(totalUs / 1e6).toFixed(1)} s sampled\n\nself time:\n`);
for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`${pct(us)}  ${name}\n`);
process.stdout.write('\ntotal time, portal code (dist/):\n');
for (const [name, us] of [...inclusive].filter(([name]) => name.includes(' dist/')).sort((a, b) => b[1] - a[1]).slice(0, top)) {
  process.stdout.write(`${pct(us)}  ${name}\n`);
}
