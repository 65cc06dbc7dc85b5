#!/usr/bin/env node
// ONNX Runtime's first output of a model on one float32 .npy input, saved as a float32 .npy, to set beside
// `cnnx run MODEL INPUT --save DIR` (bench/README.md: int8 logits against ONNX Runtime on a VNNI CPU).
// Usage: NODE_PATH=$ORT_DIR/node_modules bench/ort_output.js MODEL.onnx INPUT.npy OUT.npy [threads=1]
const ort = require('onnxruntime-node');
const fs = require('fs');
const path = require('path');
const readNpy = require(path.join(__dirname, 'read_npy.js'));

(async () => {
  const [model, input, out, threadsArg] = process.argv.slice(2);
  const sess = await ort.InferenceSession.create(model, {intraOpNumThreads: Number(threadsArg || 1),
                                                         graphOptimizationLevel: 'all'});
  const x = readNpy(input);
  const result = await sess.run({[sess.inputNames[0]]: new ort.Tensor('float32', x.data, x.shape)});
  const y = result[sess.outputNames[0]];
  if (y.type !== 'float32') throw new Error(`${model}: output ${sess.outputNames[0]} is ${y.type}, not float32`);
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${y.dims.join(', ')}${y.dims.length === 1 ? ',' : ''}), }`;
  header += ' '.repeat(63 - ((10 + header.length) % 64)) + '\n';  // data 64-byte aligned, as numpy writes it
  const head = Buffer.alloc(10);
  head.write('\x93NUMPY', 0, 'latin1');
  head[6] = 1;
  head[7] = 0;
  head.writeUInt16LE(header.length, 8);
  fs.writeFileSync(out, Buffer.concat([head, Buffer.from(header, 'latin1'),
                                       Buffer.from(y.data.buffer, y.data.byteOffset, y.data.byteLength)]));
})().catch(e => { console.error(e.message || e); process.exit(1); });
