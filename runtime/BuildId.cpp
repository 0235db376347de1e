// build_id_of: walks the loaded objects (dl_iterate_phdr) to the one whose segments hold the
// address, then its PT_NOTE segments to the NT_GNU_BUILD_ID note.
#include "runtime/BuildId.h"

#include <elf.h>
#include <link.h>

#include <cstdint>
#include <cstring>

namespace attn {

namespace {

struct Search {
  uintptr_t address = 0;
  std::string id;
};

// The build ID among one PT_NOTE segment's notes, or "".
std::string note_build_id(const char* notes, size_t size) {
  auto align4 = [](size_t n) { return (n + 3) & ~size_t{3}; };
  for (size_t at = 0; at + sizeof(ElfW(Nhdr)) <= size;) {
    ElfW(Nhdr) header;
    std::memcpy(&header, notes + at, sizeof header);
    const size_t name_at = at + sizeof header, desc_at = name_at + align4(header.n_namesz);
    if (desc_at + header.n_descsz > size) break;
    if (header.n_type == NT_GNU_BUILD_ID && header.n_namesz == 4 &&
        std::memcmp(notes + name_at, "GNU", 4) == 0) {
      static const char* hex = "0123456789abcdef";
      std::string id;
      for (size_t i = 0; i < header.n_descsz; ++i) {
        const auto byte = static_cast<unsigned char>(notes[desc_at + i]);
        id += hex[byte >> 4];
        id += hex[byte & 15];
      }
      return id;
    }
    at = desc_at + align4(header.n_descsz);
  }
  return "";
}

int visit(dl_phdr_info* info, size_t, void* data) {
  auto* search = static_cast<Search*>(data);
  bool holds = false;
  for (int i = 0; i < info->dlpi_phnum && !holds; ++i) {
    const ElfW(Phdr)& p = info->dlpi_phdr[i];
    const uintptr_t start = info->dlpi_addr + p.p_vaddr;
    holds = p.p_type == PT_LOAD && search->address >= start && search->address < start + p.p_memsz;
  }
  if (!holds) return 0;
  for (int i = 0; i < info->dlpi_phnum && search->id.empty(); ++i) {
    const ElfW(Phdr)& p = info->dlpi_phdr[i];
    if (p.p_type == PT_NOTE)
      search->id = note_build_id(reinterpret_cast<const char*>(info->dlpi_addr + p.p_vaddr), p.p_memsz);
  }
  return 1;  // the object that holds the address: stop
}

}  // namespace

std::string build_id_of(const void* address) {
  Search search;
  search.address = reinterpret_cast<uintptr_t>(address);
  dl_iterate_phdr(visit, &search);
  return search.id;
}

}  // namespace attn
