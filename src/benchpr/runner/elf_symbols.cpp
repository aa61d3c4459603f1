#include "benchpr/runner/elf_symbols.hpp"

#include <elf.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <optional>
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
    if (sym.st_shndx == SHN_UNDEF || sym.st_size == 0 || sym.st_name >= names.size()) continue;
    const std::string_view raw = names.substr(sym.st_name);
    if (type != STT_OBJECT && type != STT_FUNC && type != STT_GNU_IFUNC) continue;
    const std::string_view mangled = raw.substr(0, raw.find('\0'));
    if (!limits.take(mangled.size())) return;
    if (type == STT_OBJECT) {
      out.objects.emplace(sym.st_value, ElfObject{std::string(mangled), sym.st_size});
      continue;
    }
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

// The allocated sections, named from the section-name table.
void read_sections(std::string_view image, const std::vector<Elf64_Shdr>& sections,
                   std::size_t names_index, ElfFunctions& out) {
  std::string_view names;
  if (names_index < sections.size()) {
    const Elf64_Shdr& n = sections[names_index];
    if (n.sh_offset <= image.size() && image.size() - n.sh_offset >= n.sh_size)
      names = image.substr(n.sh_offset, n.sh_size);
  }
  for (const Elf64_Shdr& sh : sections) {
    if (!(sh.sh_flags & SHF_ALLOC)) continue;
    ElfSection section;
    if (sh.sh_name < names.size()) {
      const std::string_view raw = names.substr(sh.sh_name);
      section.name = std::string(raw.substr(0, raw.find('\0')));
    }
    section.address = sh.sh_addr;
    section.size = sh.sh_size;
    section.offset = sh.sh_offset;
    section.nobits = sh.sh_type == SHT_NOBITS;
    if (!section.nobits &&
        (sh.sh_offset > image.size() || image.size() - sh.sh_offset < sh.sh_size))
      continue;  // claims bytes the file does not hold
    out.sections.push_back(std::move(section));
  }
  // By address, for section_at's binary search.
  std::sort(out.sections.begin(), out.sections.end(),
            [](const ElfSection& a, const ElfSection& b) { return a.address < b.address; });
}

// The GOT slots the dynamic linker fills with an imported symbol's address, by name.
void read_got_slots(std::string_view image, const std::vector<Elf64_Shdr>& sections,
                    ElfFunctions& out) {
  // As for the symbol tables: each table read once, all of them together at most as many
  // entries as the file has room for, and a name no longer than a real one, so a hostile
  // file's headers cannot make the reading cost the square of its size.
  constexpr std::size_t kMaxName = 4096;
  std::set<std::pair<std::uint64_t, std::uint64_t>> read;
  std::uint64_t entries_left = image.size() / sizeof(Elf64_Rela);
  for (const Elf64_Shdr& rela : sections) {
    if (rela.sh_type != SHT_RELA || rela.sh_entsize != sizeof(Elf64_Rela) ||
        rela.sh_link >= sections.size() || !read.insert({rela.sh_offset, rela.sh_size}).second)
      continue;
    const Elf64_Shdr& symtab = sections[rela.sh_link];
    if (symtab.sh_entsize != sizeof(Elf64_Sym) || symtab.sh_link >= sections.size()) continue;
    const Elf64_Shdr& strings = sections[symtab.sh_link];
    if (strings.sh_offset > image.size() || image.size() - strings.sh_offset < strings.sh_size)
      continue;
    const std::string_view names = image.substr(strings.sh_offset, strings.sh_size);
    for (std::uint64_t at = 0; at + sizeof(Elf64_Rela) <= rela.sh_size; at += sizeof(Elf64_Rela)) {
      if (entries_left == 0) return;
      --entries_left;
      Elf64_Rela r;
      if (!read_at(image, rela.sh_offset + at, r)) break;
      const auto type = ELF64_R_TYPE(r.r_info);
      if (type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT) continue;
      const std::uint64_t index = ELF64_R_SYM(r.r_info);
      if (index == 0 || index >= symtab.sh_size / sizeof(Elf64_Sym)) continue;
      Elf64_Sym sym;
      if (!read_at(image, symtab.sh_offset + index * sizeof(Elf64_Sym), sym) ||
          sym.st_name >= names.size())
        continue;
      const std::string_view raw = names.substr(sym.st_name);
      const std::string_view name = raw.substr(0, raw.find('\0'));
      if (name.size() > kMaxName) continue;
      out.got_slots.emplace(r.r_offset, std::string(name));
    }
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

// The section holding `address` (sections are sorted by address; of overlapping ones, a
// hostile file's, the last to start before it).
const ElfSection* section_at(const ElfFunctions& file, std::uint64_t address) {
  auto it = std::upper_bound(file.sections.begin(), file.sections.end(), address,
                             [](std::uint64_t a, const ElfSection& s) { return a < s.address; });
  if (it == file.sections.begin()) return nullptr;
  --it;
  return address - it->address < it->size ? &*it : nullptr;
}

// Up to `n` bytes from `address` within its section, as a view into the file (a NOBITS
// section's zeros as `zeros` of that count); nullopt when the address is in no allocated
// section. No copy: a large table referred to many times costs no more than its comparison.
struct Bytes {
  std::string_view view;
  std::uint64_t zeros = 0;
  std::uint64_t size() const { return zeros > 0 ? zeros : view.size(); }
};

std::optional<Bytes> bytes_at(const ElfFunctions& file, std::uint64_t address, std::uint64_t n) {
  const ElfSection* s = section_at(file, address);
  if (!s) return std::nullopt;
  const std::uint64_t within = address - s->address;
  const std::uint64_t count = std::min(n, s->size - within);
  if (s->nobits) return Bytes{{}, count};
  if (s->offset + within > file.image.size() || file.image.size() - s->offset - within < count)
    return std::nullopt;
  return Bytes{std::string_view(file.image).substr(s->offset + within, count), 0};
}

bool same_bytes(const Bytes& x, const Bytes& y) {
  if (x.size() != y.size()) return false;
  if (x.zeros > 0 && y.zeros > 0) return true;
  const Bytes& held = x.zeros > 0 ? y : x;
  const Bytes& other = x.zeros > 0 ? x : y;
  if (other.zeros > 0)
    return std::all_of(held.view.begin(), held.view.end(), [](char c) { return c == '\0'; });
  return held.view == other.view;
}

// The imported symbol a PLT stub at `address` jumps to: its indirect jump (FF 25 rel32, after
// an endbr64 or a bnd prefix) reads a GOT slot that a relocation names. "" when it is no stub.
std::string plt_target(const ElfFunctions& file, std::uint64_t address) {
  const ElfSection* s = section_at(file, address);
  if (!s || s->name.rfind(".plt", 0) != 0) return "";
  const std::optional<Bytes> bytes = bytes_at(file, address, 16);
  if (!bytes || bytes->zeros > 0) return "";
  const std::string stub(bytes->view);
  for (std::size_t k = 0; k + 6 <= stub.size(); ++k) {
    if (static_cast<unsigned char>(stub[k]) != 0xFF ||
        static_cast<unsigned char>(stub[k + 1]) != 0x25)
      continue;
    const std::uint64_t slot = address + k + 6 + static_cast<std::int64_t>(rel32(stub, k + 2));
    const auto it = file.got_slots.find(slot);
    return it == file.got_slots.end() ? std::string() : it->second + "@plt";
  }
  return "";
}

// The data object holding `address`, or nullptr.
const std::pair<const std::uint64_t, ElfObject>* object_at(const ElfFunctions& file,
                                                           std::uint64_t address) {
  auto it = file.objects.upper_bound(address);
  if (it == file.objects.begin()) return nullptr;
  --it;
  return address - it->first < it->second.size ? &*it : nullptr;
}

// Data objects already compared in one same_code call, by their starts: each pair once.
using ObjectVerdicts = std::map<std::pair<std::uint64_t, std::uint64_t>, bool>;

// A switch's jump table as g++ lays it out for position-independent code: 32-bit entries, each
// the distance from the table to a case label inside the function. When the function and its
// table moved by different distances the entries differ, though each reaches the same label:
// the same table when every entry reaches the same offset into the function on both sides, at
// least two of them, up to the first entry that reaches out of the function on both.
bool same_jump_table(const ElfFunction& fa, const ElfFunctions& a, std::uint64_t ta,
                     const ElfFunction& fb, const ElfFunctions& b, std::uint64_t tb) {
  constexpr std::size_t kMostEntries = 4096;
  std::size_t matched = 0;
  for (std::size_t k = 0; k < kMostEntries; ++k) {
    const auto ea = bytes_at(a, ta + 4 * k, 4);
    const auto eb = bytes_at(b, tb + 4 * k, 4);
    if (!ea || !eb || ea->size() != 4 || eb->size() != 4) break;
    const auto label = [](const Bytes& e, std::uint64_t table) {
      std::int32_t v = 0;
      if (e.zeros == 0) std::memcpy(&v, e.view.data(), 4);
      return table + static_cast<std::uint64_t>(static_cast<std::int64_t>(v));
    };
    const std::uint64_t la = label(*ea, ta), lb = label(*eb, tb);
    const bool in_a = la >= fa.address && la - fa.address < fa.size;
    const bool in_b = lb >= fb.address && lb - fb.address < fb.size;
    if (!in_a && !in_b) break;  // past the table's end
    if (in_a != in_b || la - fa.address != lb - fb.address) return false;
    ++matched;
  }
  return matched >= 2;
}

// Whether `ta` in build a and `tb` in build b are the same thing to refer to (see same_code).
bool same_referent(const ElfFunction& fa, const ElfFunctions& a, std::uint64_t ta,
                   const ElfFunction& fb, const ElfFunctions& b, std::uint64_t tb,
                   ObjectVerdicts& objects) {
  // Inside the function itself (a local jump table, a label): the same offset into it.
  const bool in_a = ta >= fa.address && ta - fa.address < fa.size;
  const bool in_b = tb >= fb.address && tb - fb.address < fb.size;
  if (in_a || in_b) return in_a && in_b && ta - fa.address == tb - fb.address;
  const std::string na = name_at(a, ta), nb = name_at(b, tb);
  if (!na.empty() || !nb.empty()) return na == nb;
  const std::string pa = plt_target(a, ta), pb = plt_target(b, tb);
  if (!pa.empty() || !pb.empty()) return pa == pb;
  const auto* oa = object_at(a, ta);
  const auto* ob = object_at(b, tb);
  if (oa || ob) {
    if (!oa || !ob || oa->second.name != ob->second.name || oa->second.size != ob->second.size ||
        ta - oa->first != tb - ob->first)
      return false;
    const auto known = objects.find({oa->first, ob->first});
    if (known != objects.end()) return known->second;
    const auto da = bytes_at(a, oa->first, oa->second.size);
    const auto db = bytes_at(b, ob->first, ob->second.size);
    const bool same = da && db && da->size() == oa->second.size && same_bytes(*da, *db);
    objects.emplace(std::make_pair(oa->first, ob->first), same);
    return same;
  }
  // Unnamed data (string literals, constant pools): the same section and the same bytes there.
  const ElfSection* sa = section_at(a, ta);
  const ElfSection* sb = section_at(b, tb);
  if (!sa || !sb || sa->name != sb->name || sa->nobits || sb->nobits) return false;
  const auto da = bytes_at(a, ta, 16);
  const auto db = bytes_at(b, tb, 16);
  if (da && db && da->size() > 0 && same_bytes(*da, *db)) return true;
  return same_jump_table(fa, a, ta, fb, b, tb);
}

// The size of the immediate that follows a RIP-relative operand's rel32, from the opcode before
// its ModRM byte at `modrm` (0 for most; a guess that is wrong only makes the target wrong,
// which reads as changed code).
std::size_t immediate_after(const std::string& code, std::size_t modrm) {
  const auto at = [&](std::size_t back) -> int {
    return modrm >= back ? static_cast<unsigned char>(code[modrm - back]) : -1;
  };
  const int op = at(1);
  const int reg = (static_cast<unsigned char>(code[modrm]) >> 3) & 7;
  const bool word = at(2) == 0x66 || at(3) == 0x66;
  if (at(2) == 0x0F) {
    switch (op) {
      case 0x70:
      case 0x71:
      case 0x72:
      case 0x73:
      case 0xA4:
      case 0xAC:
      case 0xBA:
      case 0xC2:
      case 0xC4:
      case 0xC5:
      case 0xC6:
        return 1;
      default:
        return 0;
    }
  }
  if (at(2) == 0x3A && at(3) == 0x0F) return 1;
  switch (op) {
    case 0x80:
    case 0x82:
    case 0x83:
    case 0xC0:
    case 0xC1:
    case 0xC6:
    case 0x6B:
      return 1;
    case 0x81:
    case 0xC7:
    case 0x69:
      return word ? 2 : 4;
    case 0xF6:
      return reg <= 1 ? 1 : 0;
    case 0xF7:
      return reg <= 1 ? (word ? 2 : 4) : 0;
    default:
      return 0;
  }
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
  read_sections(image, sections, eh.e_shstrndx, out);
  read_got_slots(image, sections, out);
  out.image = std::string(image);
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

namespace {

// Whether `n` bytes of base's code from `at_a` and of head's from `at_b` are the same
// instructions: the same bytes, except a rel32 whose two targets are the same thing (see
// same_code).
bool same_range(const ElfFunction& base, const ElfFunctions& base_file, std::size_t at_a,
                const ElfFunction& head, const ElfFunctions& head_file, std::size_t at_b,
                std::size_t n, ObjectVerdicts& objects) {
  const std::string a = base.bytes.substr(at_a, n);
  const std::string b = head.bytes.substr(at_b, n);
  if (a.size() != n || b.size() != n) return false;
  std::size_t i = 0;
  while (i < n) {
    if (a[i] == b[i]) {
      ++i;
      continue;
    }
    // A difference inside a rel32 whose two targets are the same thing: a call or jump's, or
    // a RIP-relative operand's (the byte before is the same opcode or ModRM on both sides).
    bool explained = false;
    for (std::size_t q = i >= 3 ? i - 3 : 1; q <= i && !explained; ++q) {
      if (q == 0 || q + 4 > n || a[q - 1] != b[q - 1]) continue;
      const auto op = static_cast<unsigned char>(a[q - 1]);
      const bool branch = op == 0xE8 || op == 0xE9;
      const bool rip = (op & 0xC7) == 0x05 && q >= 2;
      if (!branch && !rip) continue;
      if (!std::equal(a.begin() + static_cast<std::ptrdiff_t>(q),
                      a.begin() + static_cast<std::ptrdiff_t>(i),
                      b.begin() + static_cast<std::ptrdiff_t>(q)))
        continue;
      // A branch ends at its rel32; a RIP-relative operand's instruction may carry an
      // immediate after it, and the displacement counts from the instruction's end.
      const std::size_t end = q + 4 + (branch ? 0 : immediate_after(a, q - 1));
      if (end > n) continue;
      const std::uint64_t ta = base.address + at_a + end + static_cast<std::int64_t>(rel32(a, q));
      const std::uint64_t tb = head.address + at_b + end + static_cast<std::int64_t>(rel32(b, q));
      if (same_referent(base, base_file, ta, head, head_file, tb, objects)) {
        explained = true;
        i = q + 4;
      }
    }
    if (!explained) return false;
  }
  return true;
}

// A jump or a return at `at`: what it does, its length, and where its displacement is (rel_size
// 0: none). The assembler encodes a jump short (rel8) or near (rel32) by how far its target is,
// so code the benchmark never runs, grown or shrunk between them, changes the encoding of the
// same jump: `kind` is what decides whether two are the same instruction.
struct Transfer {
  enum Kind : int { Return = 0x100, Jump = 0x101, Conditional = 0x70 };  // + condition (0-15)
  int kind = Return;
  std::size_t length = 0;
  std::size_t rel_at = 0;  // from the instruction's start
  int rel_size = 0;
};

std::optional<Transfer> transfer_at(const std::string& code, std::size_t at) {
  const auto byte = [&](std::size_t i) -> int {
    return i < code.size() ? static_cast<unsigned char>(code[i]) : -1;
  };
  std::size_t p = at;
  // Branch hints (2E, 3E) and BND (F2) may stand before a jump.
  while (p < at + 2 && (byte(p) == 0x2E || byte(p) == 0x3E || byte(p) == 0xF2)) ++p;
  const int c = byte(p);
  const std::size_t prefix = p - at;
  if (c == 0xC3) return Transfer{Transfer::Return, prefix + 1, 0, 0};
  if (c == 0xF3 && byte(p + 1) == 0xC3) return Transfer{Transfer::Return, prefix + 2, 0, 0};
  if (c == 0xEB) return Transfer{Transfer::Jump, prefix + 2, prefix + 1, 1};
  if (c >= 0x70 && c <= 0x7F)
    return Transfer{Transfer::Conditional + (c & 0x0F), prefix + 2, prefix + 1, 1};
  if (c == 0xE9) return Transfer{Transfer::Jump, prefix + 5, prefix + 1, 4};
  if (c == 0x0F && (byte(p + 1) & 0xF0) == 0x80)
    return Transfer{Transfer::Conditional + (byte(p + 1) & 0x0F), prefix + 6, prefix + 2, 4};
  return std::nullopt;
}

// A no-op at `at` (90, 66 90, or 0F 1F /0 behind 66 and 2E prefixes): the padding that aligns
// a loop, whose length follows where the code sits, not what it does.
bool nop_at(const std::string& code, std::size_t at) {
  std::size_t p = at;
  while (p < code.size() && p < at + 8 && (code[p] == '\x66' || code[p] == '\x2e')) ++p;
  if (p < code.size() && code[p] == '\x90') return true;
  return p + 1 < code.size() && code[p] == '\x0f' && code[p + 1] == '\x1f';
}

// An indirect jump at `at` (FF /4 or /5, behind notrack, BND, hint and REX prefixes): a jump
// table's or a computed jump, whose target the bytes do not say.
bool indirect_jump_at(const std::string& code, std::size_t at) {
  std::size_t p = at;
  while (p < code.size() && p < at + 3 &&
         (code[p] == '\x3e' || code[p] == '\x2e' || code[p] == '\xf2'))
    ++p;
  if (p < code.size() && (static_cast<unsigned char>(code[p]) & 0xF0) == 0x40) ++p;
  if (p + 1 >= code.size() || code[p] != '\xff') return false;
  const int reg = (static_cast<unsigned char>(code[p + 1]) >> 3) & 7;
  return reg == 4 || reg == 5;
}

// How far two sides' executions per iteration of one instruction may differ and still be the
// same path taken as often. Each side's count per iteration is the difference of two runs of
// its own iteration counts, so a path run now and then is sampled a little differently on each:
// cctz's n_sec runs a month's-end path once in about 530 calls, read 0.00187 on one side and
// 0.00182 on the other (2.7% apart). The slack is the smaller of kRarePathShare of the
// instruction's own count and kRarePathSlack of the function's most run instruction's: a rare
// path may read up to 5% more often, never three times as often, however cheap in instructions
// (a PR that makes a system call on a rare path run 1 time in 1,000 instead of 1 in 3,000 stays
// changed code, though its counts barely move).
constexpr double kRarePathShare = 0.05;
constexpr double kRarePathSlack = 0.002;

// The instructions a benchmark runs in one function, in address order, with the alignment
// padding (no-ops) among them left out: padding falls through, and how much of it a loop needs
// follows from where the code sits, so relinking adds or drops it.
struct ExecutedPath {
  std::vector<std::uint64_t> at;    // offsets into the function
  std::vector<std::uint64_t> span;  // to the next instruction run (padding too), or to the end
  std::vector<double> count;        // executions per iteration
  // Offset of any instruction run (padding too) -> the index of the instruction it is or, for
  // padding, of the one it falls through to.
  std::map<std::uint64_t, std::size_t> index;
};

// False when an address lies outside the function, or padding is the last thing it runs.
bool executed_path(const ElfFunction& f, const ExecutedInstructions& run, ExecutedPath& out) {
  std::vector<std::uint64_t> padding;  // run since the last instruction kept
  for (auto it = run.begin(); it != run.end(); ++it) {
    const auto [address, n] = *it;
    if (address < f.address || address - f.address >= f.size) return false;
    const std::uint64_t offset = address - f.address;
    if (!out.at.empty() && out.span.size() < out.at.size())
      out.span.push_back(offset - out.at.back());
    if (nop_at(f.bytes, offset)) {
      padding.push_back(offset);
      continue;
    }
    for (std::uint64_t p : padding) out.index[p] = out.at.size();
    padding.clear();
    out.index[offset] = out.at.size();
    out.at.push_back(offset);
    out.count.push_back(n);
  }
  if (!padding.empty() || out.at.empty()) return false;
  out.span.push_back(f.size - out.at.back());
  return true;
}

}  // namespace

bool has_avx512_code(const ElfFunction& f) {
  int found = 0;
  for (std::size_t at = 0; at + 3 < f.bytes.size() && found < 3; ++at) {
    const auto p0 = static_cast<unsigned char>(f.bytes[at + 1]);
    const auto p1 = static_cast<unsigned char>(f.bytes[at + 2]);
    if (static_cast<unsigned char>(f.bytes[at]) == 0x62 && (p0 & 0x0C) == 0 && (p0 & 0x03) != 0 &&
        (p1 & 0x04) != 0)
      ++found;
  }
  return found >= 3;
}

std::vector<std::string> direct_callees(const ElfFunction& f, const ElfFunctions& file) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (std::size_t at = 0; at + 5 <= f.bytes.size(); ++at) {
    const auto op = static_cast<unsigned char>(f.bytes[at]);
    if (op != 0xE8 && op != 0xE9) continue;
    const auto offset = static_cast<std::int64_t>(rel32(f.bytes, at + 1));
    const std::uint64_t target = f.address + at + 5 + static_cast<std::uint64_t>(offset);
    if (target == f.address) continue;  // itself
    const std::string name = name_at(file, target);
    if (!name.empty() && seen.insert(name).second) out.push_back(name);
  }
  return out;
}

bool same_code(const ElfFunction& base, const ElfFunctions& base_file, const ElfFunction& head,
               const ElfFunctions& head_file) {
  if (base.size != head.size || base.bytes.size() != base.size || head.bytes.size() != head.size)
    return false;
  ObjectVerdicts objects;
  return same_range(base, base_file, 0, head, head_file, 0, base.bytes.size(), objects);
}

bool same_executed_code(const ElfFunction& base, const ElfFunctions& base_file,
                        const ExecutedInstructions& base_run, const ElfFunction& head,
                        const ElfFunctions& head_file, const ExecutedInstructions& head_run) {
  if (base_run.empty() || head_run.empty() || base.bytes.size() != base.size ||
      head.bytes.size() != head.size)
    return false;
  ExecutedPath pb, ph;
  if (!executed_path(base, base_run, pb) || !executed_path(head, head_run, ph) ||
      pb.at.size() != ph.at.size())
    return false;
  const std::size_t n = pb.at.size();
  // Both enter at the function's start, and every other instruction run is reached from one
  // run before it, falling through or by a direct jump (`reached`): so where each runs follows
  // from the code's own structure, from the entry on, and a PR's Callgrind output cannot pick
  // another path of its code that looks like the base's (a copy behind a slow prologue, a block
  // a changed jump table reaches). What it runs is then the base's path, read from the base's
  // sealed output, through the PR's bytes.
  if (base_run.begin()->first != base.address || head_run.begin()->first != head.address)
    return false;
  std::vector<bool> reached(n, false);
  reached[0] = true;
  // Each instruction run as often per iteration on both sides (exact counts: equal but for the
  // rounding of the two runs' difference), or, on a path run now and then, within the sampling
  // slack of kRarePathShare and kRarePathSlack.
  double peak = 0;
  for (std::size_t k = 0; k < n; ++k) peak = std::max({peak, pb.count[k], ph.count[k]});
  for (std::size_t k = 0; k < n; ++k) {
    const double most = std::max(pb.count[k], ph.count[k]);
    const double slack =
        std::max(1e-3 * most, std::min(kRarePathShare * most, kRarePathSlack * peak));
    if (std::fabs(pb.count[k] - ph.count[k]) > 1e-6 + slack) return false;
  }
  ObjectVerdicts objects;
  const std::string& a = base.bytes;
  const std::string& b = head.bytes;
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint64_t ob = pb.at[k], oh = ph.at[k];
    const std::uint64_t gap_b = pb.span[k], gap_h = ph.span[k];
    const auto falls_through = [&] {
      if (k + 1 < n) reached[k + 1] = true;
    };
    if (indirect_jump_at(a, ob) || indirect_jump_at(b, oh)) return false;
    const std::optional<Transfer> tb = transfer_at(a, ob);
    const std::optional<Transfer> th = transfer_at(b, oh);
    if (!tb && !th) {
      // It falls through: the next instruction it runs (or padding) follows it at once.
      if (gap_b != gap_h) return false;
      if (!same_range(base, base_file, ob, head, head_file, oh, gap_b, objects)) return false;
      falls_through();
      continue;
    }
    // The same jump (or return), short or near as far as its target lies on each side.
    if (!tb || !th || tb->kind != th->kind || tb->length > gap_b || th->length > gap_h)
      return false;
    // Whether it falls through to the next instruction it runs: the same on both sides. Only a
    // conditional jump can (what follows a jump or a return is reached from elsewhere, if at all).
    if ((gap_b == tb->length) != (gap_h == th->length)) return false;
    const bool conditional = tb->kind != Transfer::Jump && tb->kind != Transfer::Return;
    if (conditional && gap_b == tb->length) falls_through();
    if (tb->rel_size == 0) continue;  // a return
    const auto rel = [](const Transfer& t, const std::string& code,
                        std::uint64_t at) -> std::int64_t {
      if (t.rel_size == 1) return static_cast<std::int8_t>(code[at + t.rel_at]);
      return rel32(code, at + t.rel_at);
    };
    const std::int64_t to_b = static_cast<std::int64_t>(ob + tb->length) + rel(*tb, a, ob);
    const std::int64_t to_h = static_cast<std::int64_t>(oh + th->length) + rel(*th, b, oh);
    const bool in_b = to_b >= 0 && static_cast<std::uint64_t>(to_b) < base.size;
    const bool in_h = to_h >= 0 && static_cast<std::uint64_t>(to_h) < head.size;
    if (in_b != in_h) return false;
    if (!in_b) {  // a tail call: the same function or import
      if (!same_referent(base, base_file, base.address + static_cast<std::uint64_t>(to_b), head,
                         head_file, head.address + static_cast<std::uint64_t>(to_h), objects))
        return false;
      continue;
    }
    // Inside the function: to the same instruction it runs on both sides (or padding before
    // it), or, on both, to code this benchmark never runs (a branch it never takes, whose
    // fall-through it runs).
    const auto at_b = pb.index.find(static_cast<std::uint64_t>(to_b));
    const auto at_h = ph.index.find(static_cast<std::uint64_t>(to_h));
    if ((at_b == pb.index.end()) != (at_h == ph.index.end())) return false;
    if (at_b != pb.index.end()) {
      if (at_b->second != at_h->second) return false;
      reached[at_b->second] = true;
    } else if (!conditional || gap_b != tb->length || gap_h != th->length) {
      return false;  // never taken, so it must fall through to the next instruction it runs
    }
  }
  return std::all_of(reached.begin(), reached.end(), [](bool r) { return r; });
}

}  // namespace benchpr::runner
