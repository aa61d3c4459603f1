#include "benchpr/runner/elf_symbols.hpp"

#include <elf.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <tuple>

#include <cxxabi.h>

namespace benchpr::runner {

namespace {

template <class T>
bool read_at(std::string_view image, std::uint64_t offset, T& out) {
  if (offset > image.size() || image.size() - offset < sizeof(T)) return false;
  std::memcpy(&out, image.data() + offset, sizeof(T));
  return true;
}

// The file offset of [address, address + size): in an allocated section that has bytes in the
// file, and wholly inside the file (a section header may claim any offset). False when not.
bool file_offset(std::string_view image, const std::vector<Elf64_Shdr>& sections,
                 std::uint64_t address, std::uint64_t size, std::uint64_t& offset) {
  for (const Elf64_Shdr& s : sections) {
    if (!(s.sh_flags & SHF_ALLOC) || s.sh_type == SHT_NOBITS) continue;
    if (address < s.sh_addr || address - s.sh_addr > s.sh_size ||
        s.sh_size - (address - s.sh_addr) < size)
      continue;
    const std::uint64_t at = address - s.sh_addr;
    if (s.sh_offset > image.size() || at > image.size() - s.sh_offset ||
        size > image.size() - s.sh_offset - at)
      continue;
    offset = s.sh_offset + at;
    return true;
  }
  return false;
}

// What the symbol tables may make the reader hold, however the PR's build lays them out: every
// table is read once, all of them together at most as many entries as the file has room for,
// and the names and bytes copied at most a few times the file's size. A real program's
// .symtab and .dynsym lie side by side in the file, far within both bounds; a file whose tables
// overlap over and over would otherwise cost time and memory by the square of its size.
struct Limits {
  explicit Limits(std::size_t file_size)
      : entries_left(file_size / sizeof(Elf64_Sym)), bytes_left(4 * file_size + (1u << 20)) {}
  std::set<std::tuple<std::uint64_t, std::uint64_t, std::uint32_t>> tables_read;
  std::uint64_t entries_left;
  std::uint64_t bytes_left;
  bool exceeded = false;
  // Counts `bytes` more held; false (and exceeded) past the bound.
  bool take(std::uint64_t bytes) {
    if (bytes > bytes_left) {
      exceeded = true;
      return false;
    }
    bytes_left -= bytes;
    return true;
  }
};

// Function symbols of one symbol table section.
void read_symbols(std::string_view image, const std::vector<Elf64_Shdr>& sections,
                  const Elf64_Shdr& table, ElfFunctions& out, Limits& limits,
                  std::set<std::tuple<std::string, std::uint64_t, std::uint64_t>>& seen) {
  if (table.sh_link >= sections.size() || table.sh_entsize != sizeof(Elf64_Sym)) return;
  if (!limits.tables_read.insert({table.sh_offset, table.sh_size, table.sh_link}).second) return;
  const Elf64_Shdr& strings = sections[table.sh_link];
  if (strings.sh_offset > image.size() || image.size() - strings.sh_offset < strings.sh_size)
    return;
  const std::string_view names = image.substr(strings.sh_offset, strings.sh_size);
  for (std::uint64_t at = 0; at + sizeof(Elf64_Sym) <= table.sh_size; at += sizeof(Elf64_Sym)) {
    if (limits.entries_left == 0) {
      limits.exceeded = true;
      return;
    }
    --limits.entries_left;
    Elf64_Sym sym;
    if (!read_at(image, table.sh_offset + at, sym)) return;
    const unsigned type = ELF64_ST_TYPE(sym.st_info);
    if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sym.st_shndx == SHN_UNDEF ||
        sym.st_size == 0 || sym.st_name >= names.size())
      continue;
    const std::string_view raw = names.substr(sym.st_name);
    const std::string_view mangled = raw.substr(0, raw.find('\0'));
    if (!limits.take(mangled.size())) return;
    ElfFunction f;
    f.name = demangle(std::string(mangled));
    f.address = sym.st_value;
    f.size = sym.st_size;
    if (!seen.insert({f.name, f.address, f.size}).second) continue;
    std::uint64_t offset = 0;
    if (file_offset(image, sections, f.address, f.size, offset)) {
      if (!limits.take(f.name.size() + f.size)) return;
      f.bytes = std::string(image.substr(offset, f.size));
    } else if (!limits.take(f.name.size())) {
      return;
    }
    out.starts.emplace(f.address, f.name);
    out.functions.push_back(std::move(f));
  }
}

std::int32_t rel32(const std::string& bytes, std::size_t at) {
  std::int32_t v = 0;
  std::memcpy(&v, bytes.data() + at, sizeof v);
  return v;
}

std::string name_at(const ElfFunctions& file, std::uint64_t address) {
  const auto it = file.starts.find(address);
  return it == file.starts.end() ? std::string() : it->second;
}

}  // namespace

std::string demangle(const std::string& name) {
  if (name.rfind("_Z", 0) != 0) return name;
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(
      abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && out ? std::string(out.get()) : name;
}

std::string callgrind_base_name(const std::string& name) {
  const std::size_t quote = name.rfind('\'');
  if (quote == std::string::npos || quote + 1 == name.size()) return name;
  for (std::size_t i = quote + 1; i < name.size(); ++i)
    if (name[i] < '0' || name[i] > '9') return name;
  return name.substr(0, quote);
}

ElfFunctions parse_elf_functions(std::string_view image) {
  ElfFunctions out;
  Elf64_Ehdr eh;
  if (!read_at(image, 0, eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) {
    out.error = "not an ELF file";
    return out;
  }
  if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB) {
    out.error = "not a little-endian 64-bit ELF file";
    return out;
  }
  if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shnum == 0) {
    out.error = "no section headers";
    return out;
  }
  std::vector<Elf64_Shdr> sections(eh.e_shnum);
  for (std::size_t i = 0; i < sections.size(); ++i) {
    if (!read_at(image, eh.e_shoff + i * sizeof(Elf64_Shdr), sections[i])) {
      out.error = "truncated section headers";
      return out;
    }
  }
  Limits limits(image.size());
  std::set<std::tuple<std::string, std::uint64_t, std::uint64_t>> seen;
  for (Elf64_Word type :
       {static_cast<Elf64_Word>(SHT_SYMTAB), static_cast<Elf64_Word>(SHT_DYNSYM)}) {
    for (const Elf64_Shdr& s : sections)
      if (s.sh_type == type && !limits.exceeded)
        read_symbols(image, sections, s, out, limits, seen);
    if (!out.functions.empty() || limits.exceeded) break;  // .dynsym only for a stripped file
  }
  if (limits.exceeded) {
    ElfFunctions refused;
    refused.error = "symbol tables that name more than the file holds (tables over each other)";
    return refused;
  }
  std::sort(out.functions.begin(), out.functions.end(),
            [](const ElfFunction& a, const ElfFunction& b) {
              return std::tie(a.address, a.name) < std::tie(b.address, b.name);
            });
  if (out.functions.empty()) out.error = "no function symbols (stripped)";
  return out;
}

ElfFunctions read_elf_functions(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    ElfFunctions out;
    out.error = "cannot open " + path;
    return out;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  const std::string image = ss.str();
  return parse_elf_functions(image);
}

bool same_code(const ElfFunction& base, const ElfFunctions& base_file, const ElfFunction& head,
               const ElfFunctions& head_file) {
  if (base.size != head.size || base.bytes.size() != base.size || head.bytes.size() != head.size)
    return false;
  const std::string& a = base.bytes;
  const std::string& b = head.bytes;
  std::size_t i = 0;
  while (i < a.size()) {
    if (a[i] == b[i]) {
      ++i;
      continue;
    }
    // A difference inside the rel32 of a call or jump whose two targets are the same function.
    bool explained = false;
    for (std::size_t q = i >= 3 ? i - 3 : 1; q <= i && !explained; ++q) {
      if (q == 0 || q + 4 > a.size()) continue;
      const auto op = static_cast<unsigned char>(a[q - 1]);
      if ((op != 0xE8 && op != 0xE9) || a[q - 1] != b[q - 1]) continue;
      if (!std::equal(a.begin() + static_cast<std::ptrdiff_t>(q),
                      a.begin() + static_cast<std::ptrdiff_t>(i),
                      b.begin() + static_cast<std::ptrdiff_t>(q)))
        continue;
      const std::uint64_t ta = base.address + q + 4 + static_cast<std::int64_t>(rel32(a, q));
      const std::uint64_t tb = head.address + q + 4 + static_cast<std::int64_t>(rel32(b, q));
      const std::string na = name_at(base_file, ta);
      if (!na.empty() && na == name_at(head_file, tb)) {
        explained = true;
        i = q + 4;
      }
    }
    if (!explained) return false;
  }
  return true;
}

}  // namespace benchpr::runner
