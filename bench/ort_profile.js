#!/usr/bin/env node
// ONNX Runtime's own per-op profile of one model, to set beside `cnnx bench MODEL --profile`: mean ms per run
// per op type, then the slowest nodes (ORT names a node by its output, after its own fusions: a Conv fused with
// the Relu after it is listed under the Relu's output).
// Usage: NODE_PATH=$ORT_DIR/node_modules bench/ort_profile.js MODEL.onnx INPUT.npy [threads=1] [runs=30] [top=15]
//   top `json`: every node as one JSON object instead, {"threads", "runs", "ms_in_nodes", "nodes": [{"name",
//   "op", "ms", "median_ms", "min_ms"}, ...]} in run order (ms the mean per model run) (bench/profile_beside.py sets it beside cnnx's steps).
const ort = require('onnxruntime-node');
const fs = require('fs');
const readNpy = require('./read_npy');
const os = require('os');
const path = require('path');


(async () => {
  const [model, input, threadsArg, runsArg, topArg] = process.argv.slice(2);
  const threads = Number(threadsArg || 1), runs = Number(runsArg || 30), top = topArg === 'json' ? 0 : Number(topArg || 15);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ort_profile_'));
  const sess = await ort.InferenceSession.create(model, {
    intraOpNumThreads: threads, interOpNumThreads: 1, graphOptimizationLevel: 'all', executionMode: 'sequential',
    enableProfiling: true, profileFilePrefix: path.join(dir, 'p') });
  const x = readNpy(input);
  const feeds = { [sess.inputNames[0]]: new ort.Tensor('float32', x.data, x.shape) };
  await sess.run(feeds);  // warm-up, profiled too: its events are dropped below
  for (let i = 0; i < runs; i++) await sess.run(feeds);
  sess.endProfiling();
  const file = fs.readdirSync(dir).map(f => path.join(dir, f)).find(f => f.endsWith('.json'));
  const events = JSON.parse(fs.readFileSync(file, 'utf8'));
  fs.rmSync(dir, { recursive: true });
  // Node events of the timed runs: those after the first model_run ends.
  const firstRunEnd = events.filter(e => e.name === 'model_run').map(e => e.ts + e.dur).sort((a, b) => a - b)[0];
  const byOp = new Map(), byNode = new Map();
  for (const e of events) {
    if (e.cat !== 'Node' || !e.name.endsWith('_kernel_time') || e.ts < firstRunEnd) continue;
    const op = e.args.op_name, node = e.name.slice(0, -'_kernel_time'.length);
    const o = byOp.get(op) || { us: 0, n: 0 };
    o.us += e.dur; o.n += 1; byOp.set(op, o);
    const prev = byNode.get(node) || { us: 0, samples: [] };
    byNode.set(node, { op, us: prev.us + e.dur, samples: prev.samples.concat([e.dur]) });
  }
  if (topArg === 'json') {
    let inNodes = 0;
    for (const o of byNode.values()) inNodes += o.us;
    console.log(JSON.stringify({ threads, runs, ms_in_nodes: inNodes / runs / 1000,
      nodes: [...byNode].map(([name, o]) => {
        // Median and minimum of the node's runs (a node run more than once per model run counts each alone).
        const t = o.samples.slice().sort((a, b) => a - b), per = t.length / runs;
        return { name, op: o.op, ms: o.us / runs / 1000, median_ms: t[t.length >> 1] * per / 1000, min_ms: t[0] * per / 1000 };
      }) }));
    return;
  }
  const ms = us => (us / runs / 1000).toFixed(3).padStart(9);
  let total = 0;
  for (const o of byOp.values()) total += o.us;
  console.log(`ONNX Runtime profile (mean of ${runs} runs, ${threads} thread(s), ${ms(total).trim()} ms in nodes):`);
  for (const [op, o] of [...byOp].sort((a, b) => b[1].us - a[1].us))
    console.log(`${ms(o.us)} ms  ${op} x${Math.round(o.n / runs)}`);
  console.log('slowest nodes:');
  for (const [node, o] of [...byNode].sort((a, b) => b[1].us - a[1].us).slice(0, top))
    console.log(`${ms(o.us)} ms  ${o.op} ${node}`);
})().catch(e => { console.error(`ort_profile: ${e.message}`); process.exit(1); });
