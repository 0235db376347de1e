/// Integer division and modulo as in the IR (Euclidean; x / 0 == 0 and x % 0 == 0).
[[maybe_unused]] int attn_div_i32(int a, int b) {
  if (b == 0) return 0;
  int q = a / b, r = a % b;
  if (r < 0) q += b > 0 ? -1 : 1;
  return q;
}
[[maybe_unused]] int attn_mod_i32(int a, int b) {
  if (b == 0) return 0;
  int r = a % b;
  if (r < 0) r += b > 0 ? b : -b;
  return r;
}
[[maybe_unused]] float attn_mod_f32(float a, float b) { return a - b * floorf(a / b); }
[[maybe_unused]] int attn_min_i32(int a, int b) { return a < b ? a : b; }
[[maybe_unused]] int attn_max_i32(int a, int b) { return a > b ? a : b; }

