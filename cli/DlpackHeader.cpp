// Writes the DLPack header and its license embedded at build time (cli/CMakeLists.txt).
#include "cli/DlpackHeader.h"

#include <map>
#include <string>

#include "runtime/OutputFile.h"

namespace attn::cli {

const std::string& dlpack_text(const std::string& name);  // generated: DlpackText.cpp

void write_dlpack_header(const std::filesystem::path& dir) {
  std::filesystem::path folder = dir / "dlpack";
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) throw std::runtime_error("cannot create " + folder.string() + ": " + ec.message());
  write_output_file(folder / "dlpack.h", dlpack_text("dlpack.h"));
  write_output_file(folder / "LICENSE", dlpack_text("LICENSE"));
}

}  // namespace attn::cli
