#!/usr/bin/env node
// Runs ONNX Runtime on a list of one-input models and prints their outputs as one JSON object
// {name: {dims, data} or {error}}. Used by pool_semantics.py. Usage: NODE_PATH=... pool_ort_cases.js CASES.json
//   CASES.json: [{"name", "model", "shape", "x"}, ...] (x: the float32 input, flat)
const ort = require('onnxruntime-node');
const fs = require('fs');
(async () => {
  const cases = JSON.parse(fs.readFileSync(process.argv[2]));
  const out = {};
  for (const c of cases) {
    try {
      const s = await ort.InferenceSession.create(c.model, { intraOpNumThreads: 1 });
      const r = await s.run({ x: new ort.Tensor('float32', Float32Array.from(c.x), c.shape) });
      const y = r[s.outputNames[0]];
      out[c.name] = { dims: y.dims, data: Array.from(y.data) };
    } catch (e) {
      out[c.name] = { error: String(e.message || e).slice(0, 300) };
    }
  }
  console.log(JSON.stringify(out));
})();
