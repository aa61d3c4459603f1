#include "benchpr/runner/loaded_image_digest.hpp"

#include <elf.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <optional>
#include <string_view>
#include <vector>

#include "benchpr/runner/file_digest.hpp"

namespace benchpr::runner {

namespace {

// Larger files are hashed whole (and so never count as identical to a differently built one).
constexpr std::uint64_t kMaxElfBytes = 1ull << 30;
constexpr std::string_view kDomain = "benchpr loaded image v1\n";

// The file's bytes, or nullopt when it is larger than kMaxElfBytes.
std::optional<std::string> read_whole(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw FileDigestError("cannot read " + path);
  const std::streamoff size = in.tellg();
  if (size < 0) throw FileDigestError("cannot read " + path);
  if (static_cast<std::uint64_t>(size) > kMaxElfBytes) return std::nullopt;
  std::string bytes(static_cast<std::size_t>(size), '\0');
  in.seekg(0);
  in.read(bytes.data(), size);
  if (in.gcount() != size) throw FileDigestError("cannot read " + path);
  return bytes;
}

bool in_file(const std::string& bytes, std::uint64_t offset, std::uint64_t size) {
  return offset <= bytes.size() && size <= bytes.size() - offset;
}

template <typename T>
T read_at(const std::string& bytes, std::uint64_t offset) {
  T v{};
  std::memcpy(&v, bytes.data() + offset, sizeof(T));  // little-endian host (x86-64, aarch64)
  return v;
}

// A token of `size` bytes that cannot overlap itself: it starts with the only \x01 it holds, so
// no proper suffix of it is a prefix of it. With no copy of it in the file, replacing each
// occurrence of the path by it can be undone: equal results mean equal files up to the path.
std::string token_of(std::size_t size) {
  std::string t = "\x01";
  constexpr std::string_view fill = "BENCHPR-WORKTREE/";
  while (t.size() < size) t += fill[(t.size() - 1) % fill.size()];
  t.resize(size);
  return t;
}

std::size_t find_in(const std::string& hay, const std::string& needle, std::size_t from) {
  const auto it = std::search(hay.begin() + static_cast<std::ptrdiff_t>(from), hay.end(),
                              std::boyer_moore_horspool_searcher(needle.begin(), needle.end()));
  return it == hay.end() ? std::string::npos : static_cast<std::size_t>(it - hay.begin());
}

class Hasher {
 public:
  void bytes(std::string_view b) { sha_.update(b.data(), b.size()); }
  void u64(std::uint64_t v) {
    unsigned char le[8];
    for (int i = 0; i < 8; ++i) le[i] = static_cast<unsigned char>(v >> (8 * i));
    sha_.update(le, sizeof le);
  }
  void text(std::string_view s) {
    u64(s.size());
    bytes(s);
  }
  std::string hex() { return sha_.hex_digest(); }

 private:
  Sha256 sha_;
};

// Zeroes the descriptor of each GNU build ID note in [offset, offset + size) of `image`.
void zero_build_ids(std::string& image, std::uint64_t offset, std::uint64_t size) {
  std::uint64_t at = offset;
  const std::uint64_t end = offset + size;
  const auto align4 = [](std::uint64_t v) { return (v + 3) & ~std::uint64_t{3}; };
  while (at < end && end - at >= sizeof(Elf64_Nhdr)) {
    const auto note = read_at<Elf64_Nhdr>(image, at);
    const std::uint64_t name_at = at + sizeof(Elf64_Nhdr);
    const std::uint64_t desc_at = name_at + align4(note.n_namesz);
    if (desc_at > end || note.n_descsz > end - desc_at) return;
    if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 &&
        image.compare(name_at, 4, std::string_view("GNU\0", 4)) == 0)
      std::fill_n(image.begin() + static_cast<std::ptrdiff_t>(desc_at), note.n_descsz, '\0');
    at = desc_at + align4(note.n_descsz);
  }
}

// The digest of the loaded image, or nullopt when the file is not an ELF64 little-endian file
// whose headers all lie within it.
std::optional<std::string> image_digest(const std::string& file, const std::string& worktree) {
  if (file.size() < sizeof(Elf64_Ehdr) || file.compare(0, SELFMAG, ELFMAG) != 0 ||
      file[EI_CLASS] != ELFCLASS64 || file[EI_DATA] != ELFDATA2LSB ||
      file[EI_VERSION] != EV_CURRENT)
    return std::nullopt;
  Elf64_Ehdr eh = read_at<Elf64_Ehdr>(file, 0);
  if (eh.e_phnum > 0 &&
      (eh.e_phentsize != sizeof(Elf64_Phdr) ||
       !in_file(file, eh.e_phoff, std::uint64_t{eh.e_phnum} * sizeof(Elf64_Phdr))))
    return std::nullopt;
  // Extended numbering (section 0 holds the count and the string table's index) is rare enough
  // to refuse: such a file is hashed whole.
  if (eh.e_shoff != 0 && (eh.e_shnum == 0 || eh.e_shstrndx == SHN_XINDEX)) return std::nullopt;
  std::vector<Elf64_Shdr> sections;
  if (eh.e_shoff != 0) {
    if (eh.e_shentsize != sizeof(Elf64_Shdr) ||
        !in_file(file, eh.e_shoff, std::uint64_t{eh.e_shnum} * sizeof(Elf64_Shdr)) ||
        eh.e_shstrndx >= eh.e_shnum)
      return std::nullopt;
    for (std::uint16_t i = 0; i < eh.e_shnum; ++i)
      sections.push_back(read_at<Elf64_Shdr>(file, eh.e_shoff + i * sizeof(Elf64_Shdr)));
  }
  const std::uint16_t names_index = eh.e_shstrndx;
  const auto section_name = [&](const Elf64_Shdr& s) -> std::optional<std::string_view> {
    const Elf64_Shdr& names = sections[names_index];
    if (names.sh_type == SHT_NOBITS || !in_file(file, names.sh_offset, names.sh_size) ||
        s.sh_name >= names.sh_size)
      return std::nullopt;
    const std::string_view table(file.data() + names.sh_offset, names.sh_size);
    const std::size_t end = table.find('\0', s.sh_name);
    if (end == std::string_view::npos) return std::nullopt;
    return table.substr(s.sh_name, end - s.sh_name);
  };

  // What is hashed is read from `image`: the file with what differs between two builds of one
  // source zeroed (the section table's place, the build ID) and the worktree's path replaced.
  std::string image = file;
  eh.e_shoff = 0;
  eh.e_shentsize = eh.e_shnum = eh.e_shstrndx = 0;
  std::memcpy(image.data(), &eh, sizeof eh);
  for (const Elf64_Shdr& s : sections) {
    if (s.sh_type != SHT_NOTE || !(s.sh_flags & SHF_ALLOC)) continue;
    const auto name = section_name(s);
    if (!name || *name != ".note.gnu.build-id" || !in_file(file, s.sh_offset, s.sh_size)) continue;
    zero_build_ids(image, s.sh_offset, s.sh_size);
  }
  bool canonical = false;
  if (!worktree.empty()) {
    const std::string token = token_of(worktree.size());
    if (find_in(file, token, 0) == std::string::npos) {
      canonical = true;
      for (std::size_t at = find_in(image, worktree, 0); at != std::string::npos;
           at = find_in(image, worktree, at + worktree.size()))
        image.replace(at, token.size(), token);
    }
  }

  Hasher h;
  h.bytes(kDomain);
  h.text(canonical ? "worktree path replaced" : "as built");
  h.bytes(std::string_view(image.data(), sizeof(Elf64_Ehdr)));
  h.u64(eh.e_phnum);
  for (std::uint16_t i = 0; i < eh.e_phnum; ++i) {
    const std::uint64_t at = eh.e_phoff + i * sizeof(Elf64_Phdr);
    h.bytes(std::string_view(file.data() + at, sizeof(Elf64_Phdr)));
    const auto ph = read_at<Elf64_Phdr>(file, at);
    if (ph.p_type != PT_LOAD) continue;
    if (!in_file(file, ph.p_offset, ph.p_filesz)) return std::nullopt;
    h.text(std::string_view(image.data() + ph.p_offset, ph.p_filesz));
  }
  std::uint64_t allocated = 0;
  for (const Elf64_Shdr& s : sections) allocated += (s.sh_flags & SHF_ALLOC) ? 1 : 0;
  h.u64(allocated);
  for (const Elf64_Shdr& s : sections) {
    if (!(s.sh_flags & SHF_ALLOC)) continue;
    const auto name = section_name(s);
    if (!name) return std::nullopt;
    h.text(*name);
    h.u64(s.sh_type);
    h.u64(s.sh_flags);
    h.u64(s.sh_addr);
    h.u64(s.sh_size);
    if (s.sh_type == SHT_NOBITS) continue;
    if (!in_file(file, s.sh_offset, s.sh_size)) return std::nullopt;
    h.text(std::string_view(image.data() + s.sh_offset, s.sh_size));
  }
  return h.hex();
}

}  // namespace

LoadedImageDigest loaded_image_digest(const std::string& path, const std::string& worktree) {
  const std::optional<std::string> file = read_whole(path);
  if (!file) return {sha256_file(path), false};
  if (auto digest = image_digest(*file, worktree)) return {std::move(*digest), true};
  return {sha256_hex(*file), false};
}

}  // namespace benchpr::runner
