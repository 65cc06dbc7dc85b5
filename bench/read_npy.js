// A float32 .npy file as { shape, data: Float32Array }, for the ONNX Runtime benchmark scripts here.
const fs = require('fs');

module.exports = function readNpy(path) {
  const buf = fs.readFileSync(path);
  const hlen = buf.readUInt16LE(8);
  const header = buf.slice(10, 10 + hlen).toString('latin1');
  if (!header.includes("'<f4'")) throw new Error(`${path}: only float32 .npy is supported`);
  const shape = header.match(/'shape': \(([^)]*)\)/)[1].split(',').filter(s => s.trim()).map(Number);
  const data = new Float32Array(buf.buffer.slice(buf.byteOffset + 10 + hlen, buf.byteOffset + buf.length));
  return { shape, data };
};
