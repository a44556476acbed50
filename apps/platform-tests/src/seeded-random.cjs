// Preloaded into the Postman converter: its example values come from Math.random, so a fixed
// seed makes the committed collection the same on every run (mulberry32, seed 1).
let state = 1;
Math.random = () => {
  state = (state + 0x6d2b79f5) | 0;
  let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
  mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
  return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
};
