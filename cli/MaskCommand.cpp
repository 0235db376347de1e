// `attnc mask`: plans a kernel's tiles for given lengths, prints counts and density, draws it.
#include "cli/MaskCommand.h"

#include <png.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <iostream>
#include <set>
#include <sstream>

#include "backends/Backend.h"
#include "backends/io/ScalarArgs.h"
#include "cli/Commands.h"
#include "cli/KernelSession.h"
#include "codegen/Lower.h"
#include "codegen/PlanTiles.h"
#include "frontend/Program.h"
#include "runtime/Npy.h"
#include "runtime/OutputFile.h"
#include "runtime/TilePlanner.h"

namespace attn::cli {

namespace {

struct MaskError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Rgb {
  uint8_t r, g, b;
};
constexpr Rgb kBackground{255, 255, 255}, kEmpty{236, 239, 243}, kPartial{245, 166, 35}, kFull{43, 108, 176},
    kAllowed{26, 32, 44}, kMasked{226, 232, 240};

// An RGB picture: the tile plan on the left, the corner's element mask on the right.
struct Picture {
  int width = 0, height = 0;
  std::vector<Rgb> pixels;
  Rgb& at(int x, int y) { return pixels[static_cast<size_t>(y) * width + x]; }
};

// The plan downsampled to at most `max_cells` cells a side: a cell shows Partial if any of its
// tiles is, else Full if any is, else Empty.
struct TileRaster {
  int64_t cols = 0, rows = 0, tiles_per_cell = 1;
  std::vector<uint8_t> kind;  // 0 empty, 1 full, 2 partial
};

TileRaster rasterize(const TileGrid& g, int64_t max_cells) {
  TileRaster r;
  r.tiles_per_cell = std::max<int64_t>(1, (std::max(g.q_tiles, g.kv_tiles) + max_cells - 1) / max_cells);
  r.cols = (g.kv_tiles + r.tiles_per_cell - 1) / r.tiles_per_cell;
  r.rows = (g.q_tiles + r.tiles_per_cell - 1) / r.tiles_per_cell;
  r.kind.assign(static_cast<size_t>(r.cols * r.rows), 0);
  for (int64_t qt = 0; qt < g.q_tiles; ++qt) {
    uint8_t* row = &r.kind[static_cast<size_t>(qt / r.tiles_per_cell * r.cols)];
    for (int64_t i = g.row_begin[qt]; i < g.row_begin[qt + 1]; ++i) {
      const TileRun& run = g.runs[i];
      const uint8_t k = run.kind == TileKind::Partial ? 2 : 1;
      for (int64_t c = run.begin / r.tiles_per_cell; c <= (run.end - 1) / r.tiles_per_cell; ++c)
        row[c] = std::max(row[c], k);
    }
  }
  return r;
}

Picture draw(const TileRaster& t, const std::vector<uint8_t>& corner, int64_t cq, int64_t ckv) {
  const int tile_px = static_cast<int>(std::max<int64_t>(1, 512 / std::max(t.cols, t.rows)));
  const int elem_px = static_cast<int>(std::max<int64_t>(1, 256 / std::max<int64_t>({cq, ckv, 1})));
  const int margin = 8, gap = 16;
  Picture p;
  const int plan_w = static_cast<int>(t.cols) * tile_px, plan_h = static_cast<int>(t.rows) * tile_px;
  p.width = margin + plan_w + gap + static_cast<int>(ckv) * elem_px + margin;
  p.height = margin + std::max(plan_h, static_cast<int>(cq) * elem_px) + margin;
  p.pixels.assign(static_cast<size_t>(p.width) * p.height, kBackground);
  for (int64_t y = 0; y < t.rows; ++y)
    for (int64_t x = 0; x < t.cols; ++x) {
      const uint8_t k = t.kind[y * t.cols + x];
      const Rgb c = k == 2 ? kPartial : k == 1 ? kFull : kEmpty;
      for (int dy = 0; dy < tile_px; ++dy)
        for (int dx = 0; dx < tile_px; ++dx)
          p.at(margin + static_cast<int>(x) * tile_px + dx, margin + static_cast<int>(y) * tile_px + dy) = c;
    }
  const int x0 = margin + plan_w + gap;
  for (int64_t y = 0; y < cq; ++y)
    for (int64_t x = 0; x < ckv; ++x) {
      const Rgb c = corner[y * ckv + x] ? kAllowed : kMasked;
      for (int dy = 0; dy < elem_px; ++dy)
        for (int dx = 0; dx < elem_px; ++dx)
          p.at(x0 + static_cast<int>(x) * elem_px + dx, margin + static_cast<int>(y) * elem_px + dy) = c;
    }
  return p;
}

// The picture as PNG bytes (libpng writing into memory; the file is written as every output is).
std::string encode_png(const Picture& pic) {
  std::string bytes;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (!png || !info || setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    throw MaskError("libpng failed to encode the picture");
  }
  png_set_write_fn(
      png, &bytes,
      [](png_structp p, png_bytep data, png_size_t n) {
        static_cast<std::string*>(png_get_io_ptr(p))->append(reinterpret_cast<const char*>(data), n);
      },
      [](png_structp) {});
  png_set_IHDR(png, info, pic.width, pic.height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (int y = 0; y < pic.height; ++y)
    png_write_row(png, reinterpret_cast<png_const_bytep>(&pic.pixels[static_cast<size_t>(y) * pic.width]));
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return bytes;
}

// What the SVG shows beside the two panels: the lengths and tile sizes its axes are in.
struct SvgLabels {
  std::string title;
  int64_t q_len = 0, kv_len = 0, block_q = 0, block_kv = 0;
};

// Hand-written SVG: the tile plan and the corner's elements, one rectangle per horizontal run of
// equal cells, each panel with its axes (queries down, keys across, in elements), and a legend.
std::string encode_svg(const TileRaster& t, const std::vector<uint8_t>& corner, int64_t cq, int64_t ckv,
                       const SvgLabels& l) {
  std::ostringstream os;
  const int64_t tile_px = std::max<int64_t>(1, 512 / std::max(t.cols, t.rows));
  const int64_t elem_px = std::max<int64_t>(1, 256 / std::max<int64_t>({cq, ckv, 1}));
  const int64_t left = 64, top = 56, gap = 72, legend_h = 40;
  const int64_t plan_w = t.cols * tile_px, plan_h = t.rows * tile_px;
  const int64_t x0 = left + plan_w + gap;
  // The legend: each colour and what it means, about 7 px a character.
  const std::pair<const char*, const char*> legend[] = {{"f", "full tile: every element kept"},
                                                        {"p", "partial tile: the mask decides"},
                                                        {"e", "empty tile: skipped"},
                                                        {"a", "element kept"},
                                                        {"m", "element masked"}};
  auto legend_step = [](const char* what) {
    return 16 + 7 * static_cast<int64_t>(std::string(what).size()) + 16;
  };
  int64_t legend_w = left;
  for (const auto& item : legend) legend_w += legend_step(item.second);
  const int64_t w = std::max(x0 + ckv * elem_px + 16, legend_w),
                h = top + std::max(plan_h, cq * elem_px) + 24 + legend_h;
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << w << "\" height=\"" << h
     << "\" shape-rendering=\"crispEdges\" font-family=\"sans-serif\" font-size=\"11\">\n"
     << "<title>" << l.title << "</title>\n<style>.e{fill:#eceff3}.p{fill:#f5a623}.f{fill:#2b6cb0}"
     << ".a{fill:#1a202c}.m{fill:#e2e8f0}text{fill:#1a202c}</style>\n<rect width=\"100%\" height=\"100%\" "
     << "fill=\"#fff\"/>\n";
  os << "<text x=\"8\" y=\"16\" font-size=\"13\">" << l.title << "</text>\n";
  auto runs = [&](int64_t rows, int64_t cols, auto value, auto cls, int64_t px, int64_t ox) {
    for (int64_t y = 0; y < rows; ++y)
      for (int64_t x = 0; x < cols;) {
        int64_t e = x;
        while (e < cols && value(y, e) == value(y, x)) ++e;
        os << "<rect class=\"" << cls(value(y, x)) << "\" x=\"" << ox + x * px << "\" y=\"" << top + y * px
           << "\" width=\"" << (e - x) * px << "\" height=\"" << px << "\"/>\n";
        x = e;
      }
  };
  // A panel's axes: its name above, keys across the top (0 and the last), queries down the left.
  auto axes = [&](int64_t ox, int64_t pw, int64_t ph, const std::string& name, int64_t keys,
                  int64_t queries) {
    os << "<text x=\"" << ox << "\" y=\"" << top - 26 << "\">" << name << "</text>\n";
    os << "<text x=\"" << ox << "\" y=\"" << top - 6 << "\">0</text>\n";
    os << "<text x=\"" << ox + pw << "\" y=\"" << top - 6 << "\" text-anchor=\"end\">keys " << keys
       << "</text>\n";
    os << "<text x=\"" << ox - 4 << "\" y=\"" << top + 10 << "\" text-anchor=\"end\">0</text>\n";
    os << "<text x=\"" << ox - 4 << "\" y=\"" << top + ph << "\" text-anchor=\"end\">" << queries
       << "</text>\n";
    os << "<text x=\"" << ox - 4 << "\" y=\"" << top + ph / 2 << "\" text-anchor=\"end\">queries</text>\n";
  };
  runs(
      t.rows, t.cols, [&](int64_t y, int64_t x) { return t.kind[y * t.cols + x]; },
      [](uint8_t k) { return k == 2   ? "p"
                             : k == 1 ? "f"
                                      : "e"; }, tile_px, left);
  axes(left, plan_w, plan_h,
       "tiles of " + std::to_string(l.block_q) + " x " + std::to_string(l.block_kv) +
           (t.tiles_per_cell > 1 ? " (" + std::to_string(t.tiles_per_cell) + " a cell a side)"
                                 : std::string()),
       l.kv_len, l.q_len);
  runs(
      cq, ckv, [&](int64_t y, int64_t x) { return corner[y * ckv + x]; },
      [](uint8_t k) { return k ? "a" : "m"; }, elem_px, x0);
  axes(x0, ckv * elem_px, cq * elem_px, "elements, top left", ckv, cq);
  const int64_t ly = top + std::max(plan_h, cq * elem_px) + 24;
  int64_t lx = left;
  for (const auto& [cls, what] : legend) {
    os << "<rect class=\"" << cls << "\" x=\"" << lx << "\" y=\"" << ly << "\" width=\"12\" height=\"12\"/>"
       << "<text x=\"" << lx + 16 << "\" y=\"" << ly + 10 << "\">" << what << "</text>\n";
    lx += legend_step(what);
  }
  os << "</svg>\n";
  return os.str();
}

std::pair<int, int> parse_block(const std::string& s, const KernelOptions& k) {
  if (s.empty()) return {k.block_q > 0 ? k.block_q : 64, k.block_kv > 0 ? k.block_kv : 64};
  int a = 0, b = 0;
  char comma = 0, extra = 0;
  std::istringstream is(s);
  if (!(is >> a) || a <= 0) throw MaskError("--block '" + s + "' must be BQ,BK or B (positive integers)");
  if (!(is >> comma)) return {a, a};
  if (comma != ',' || !(is >> b) || b <= 0 || (is >> extra))
    throw MaskError("--block '" + s + "' must be BQ,BK or B (positive integers)");
  return {a, b};
}

// Host copies of --arg buffers in the element types the planner reads.
struct BufferStore {
  std::deque<HostTensor> tensors;
  std::deque<std::vector<int32_t>> ints;
  std::deque<std::vector<float>> floats;

  TileBuffer add(HostTensor t) {
    TileBuffer b;
    b.shape = t.shape;
    if (t.type == ScalarType::I32 || t.type == ScalarType::F32 || t.type == ScalarType::Bool ||
        t.type == ScalarType::U8) {
      tensors.push_back(std::move(t));
      return tile_buffer_view(tensors.back());
    }
    if (t.type == ScalarType::I64) {
      auto& v = ints.emplace_back(static_cast<size_t>(t.numel()));
      for (int64_t i = 0; i < t.numel(); ++i) v[i] = static_cast<int32_t>(t.get(i));
      b.elem = TileBuffer::Elem::I32;
      b.data = v.data();
    } else {
      auto& v = floats.emplace_back(static_cast<size_t>(t.numel()));
      for (int64_t i = 0; i < t.numel(); ++i) v[i] = static_cast<float>(t.get(i));
      b.elem = TileBuffer::Elem::F32;
      b.data = v.data();
    }
    return b;
  }
};

// The most memory a plan may take; plans are a few bytes per query tile, so only absurd lengths
// and blocks (`--len 2147483647 --block 1,1`) come near it.
constexpr double kMaxPlanBytes = double(1u << 30);

// Refuses a plan that would not fit before any of it is allocated: each query tile holds a row
// start and up to three runs (Partial, Full, Partial).
void check_plan_size(int64_t q_len, int64_t kv_len, int bq, int bk) {
  const double q_tiles = std::ceil(double(q_len) / bq), kv_tiles = std::ceil(double(kv_len) / bk);
  const double bytes = (q_tiles + 1) * sizeof(int64_t) + q_tiles * 3 * sizeof(TileRun);
  if (bytes <= kMaxPlanBytes) return;
  char need[64];
  std::snprintf(need, sizeof need, "%.1f GiB", bytes / double(1u << 30));
  throw MaskError("the tile plan of " + std::to_string(int64_t(q_tiles)) + " x " +
                  std::to_string(int64_t(kv_tiles)) + " tiles (" + std::to_string(bq) + "x" +
                  std::to_string(bk) + ") would need about " + need +
                  "; attnc mask plans at most 1 GiB: use a larger --block or a shorter --len");
}

std::string percent(int64_t n, int64_t total) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g%%",
                total ? 100.0 * static_cast<double>(n) / static_cast<double>(total) : 0.0);
  return buf;
}

}  // namespace

int run_mask_command(const MaskCommandOptions& o) {
  auto [program, ir] = load_kernel(o.file, o.kernel);
  if (!ir) return 1;
  try {
    if (o.len <= 0) throw MaskError("--len must be positive");
    if (o.len_kv < 0) throw MaskError("--len-kv must be positive");
    auto [bq, bk] = parse_block(o.block, kernel_options(*ir));
    if (o.block.empty() && !o.target.empty()) {
      const TileSizes tiles = find_backend(o.target, Capability::Tiles).tiles(*ir);
      bq = tiles.q, bk = tiles.kv;
    }
    const auto t0 = std::chrono::steady_clock::now();
    auto plan = plan_tiles(*ir, {bq, bk});
    const TilePlanProgram& prog = tile_plan_program(*plan);

    TilePlanInputs in;
    in.q_len = o.len;
    in.kv_len = o.len_kv > 0 ? o.len_kv : o.len;
    if (o.head >= 0) in.h_lo = in.h_hi = o.head;
    BufferStore store;
    const std::vector<KernelArgInfo> sig = kernel_args(*ir);
    std::set<std::string> given;
    for (const std::string& a : o.args) {
      const size_t eq = a.find('=');
      if (eq == std::string::npos || eq == 0)
        throw MaskError("--arg '" + a + "' must be NAME=FILE.npy or NAME=VALUE");
      const std::string name = a.substr(0, eq), value = a.substr(eq + 1);
      if (!given.insert(name).second) throw MaskError("--arg " + name + " is given twice");
      auto info =
          std::find_if(sig.begin(), sig.end(), [&](const KernelArgInfo& i) { return i.name == name; });
      if (info == sig.end())
        throw MaskError("kernel '" + kernel_name(*ir) + "' has no argument '" + name + "'");
      if (info->is_buffer) {
        in.buffers[name] = store.add(read_tensor_arg(name, value));
      } else {
        const double v = parse_scalar_arg(name, value, info->elem);
        in.scalars[name] = v;
      }
    }
    check_plan_size(in.q_len, in.kv_len, bq, bk);
    TileGrid grid;
    try {
      grid = plan_tile_grid(prog, in);
    } catch (const std::invalid_argument& e) {
      throw MaskError(std::string(e.what()) + ": pass it with --arg NAME=...");
    }
    const auto t1 = std::chrono::steady_clock::now();
    const MaskDensity d = mask_density(prog, in, grid);
    const auto t2 = std::chrono::steady_clock::now();

    const int64_t total = grid.q_tiles * grid.kv_tiles, full = grid.count(TileKind::Full),
                  partial = grid.count(TileKind::Partial), empty = total - full - partial;
    auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
    std::cout << "kernel " << kernel_name(*ir) << ": Lq = " << in.q_len << ", Lkv = " << in.kv_len
              << ", tiles " << bq << "x" << bk << " (" << grid.q_tiles << " x " << grid.kv_tiles << " = "
              << total << ")\n";
    std::cout << "  full     " << full << " (" << percent(full, total) << ")\n";
    std::cout << "  partial  " << partial << " (" << percent(partial, total) << ")\n";
    std::cout << "  empty    " << empty << " (" << percent(empty, total) << ")\n";
    char dens[64];
    std::snprintf(dens, sizeof dens, "%.6g", d.density);
    std::cout << "density " << (d.lower_bound ? ">= " : "") << dens
              << (d.lower_bound ? " (full tiles only: " + prog.element_error + ")"
                  : d.exact
                      ? " (exact: partial tiles counted element by element)"
                      : " (estimated: partial tiles sampled at " + std::to_string(d.samples) + " elements)")
              << "\n";
    std::cout << "plan: "
              << (prog.index_only
                      ? (prog.ranges_exact ? "closed form" : "closed form, partial runs refined per tile")
                      : "run-time planner (the mask reads buffers)")
              << "; " << ms(t0, t1) << " ms to plan, " << ms(t1, t2) << " ms for the density\n";

    if (!o.png.empty() || !o.svg.empty()) {
      const int64_t cq = std::min(o.corner, in.q_len), ckv = std::min(o.corner, in.kv_len);
      // Without a per-element mask the corner panel shows nothing allowed (the reason is printed).
      const std::vector<uint8_t> corner = prog.element_error.empty()
                                              ? eval_element_mask(prog, in, 0, cq, 0, ckv)
                                              : std::vector<uint8_t>(cq * ckv, 0);
      const TileRaster raster = rasterize(grid, 512);
      if (!o.png.empty()) write_output_file(o.png, encode_png(draw(raster, corner, cq, ckv)));
      if (!o.svg.empty())
        write_output_file(o.svg, encode_svg(raster, corner, cq, ckv,
                                            {kernel_name(*ir) + ": the tile plan at " +
                                                 std::to_string(in.q_len) + " x " + std::to_string(in.kv_len),
                                             in.q_len, in.kv_len, bq, bk}));
    }
  } catch (const std::exception& e) {
    report_kernel_error(e, *program);
    return 1;
  }
  return 0;
}

}  // namespace attn::cli
