#!/usr/bin/env node
// ONNX Runtime's side of `cnnx bench --callers K`: one session, K callers with a run in flight each
// (onnxruntime-node runs a session off the JavaScript thread, so K runs overlap), ITERS runs per caller after
// one warm-up each. Prints one JSON line: callers, runs_per_s (all timed runs over their wall time),
// median_ms (per run).
// Usage: NODE_PATH=ORT/node_modules node ort_callers.js MODEL.onnx INPUT.npy [threads=2] [callers=1] [iters=20]
const ort = require('onnxruntime-node');
const readNpy = require('./read_npy');


(async () => {
  const [model, inputPath, threadsArg, callersArg, itersArg] = process.argv.slice(2);
  const threads = Number(threadsArg || 2), callers = Number(callersArg || 1), iters = Number(itersArg || 20);
  // libuv's pool runs the sessions' async work (4 threads by default, made on first use): one per caller.
  if (!process.env.UV_THREADPOOL_SIZE) process.env.UV_THREADPOOL_SIZE = String(Math.max(4, callers));
  const sess = await ort.InferenceSession.create(model, {
    intraOpNumThreads: threads, interOpNumThreads: 1, graphOptimizationLevel: 'all', executionMode: 'sequential' });
  const x = readNpy(inputPath);
  const feeds = { [sess.inputNames[0]]: new ort.Tensor('float32', x.data, x.shape) };
  await Promise.all(Array.from({ length: callers }, () => sess.run(feeds)));
  const times = [];
  const start = process.hrtime.bigint();
  await Promise.all(Array.from({ length: callers }, async () => {
    for (let i = 0; i < iters; i++) {
      const s = process.hrtime.bigint();
      await sess.run(feeds);
      times.push(Number(process.hrtime.bigint() - s) / 1e6);
    }
  }));
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  times.sort((a, b) => a - b);
  console.log(JSON.stringify({ engine: 'onnxruntime', model, threads, callers,
    runs_per_s: +(times.length / (wallMs / 1e3)).toFixed(2), median_ms: +times[Math.floor(times.length / 2)].toFixed(2) }));
})().catch(e => { console.error(e.message || e); process.exit(1); });
