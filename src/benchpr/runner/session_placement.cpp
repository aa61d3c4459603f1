// The placement control's relinks (runner/placement_variants.hpp): right after each side's build,
// its timed programs are linked again with a pad in front, by the side's own link command. The
// base's are relinked before the PR's build runs; the PR's relinks run the PR's link command, so
// like its build they must leave the base's worktree as it was (Session::run_measuring checks).
#include <filesystem>
#include <set>

#include <fmt/format.h>

#include "benchpr/core/base/text.hpp"
#include "benchpr/runner/file_digest.hpp"
#include "benchpr/runner/placement_variants.hpp"
#include "benchpr/runner/session.hpp"
#include "benchpr/runner/session_words.hpp"
#include "benchpr/runner/suite_files.hpp"

namespace benchpr::runner {

using namespace session_detail;
namespace fs = std::filesystem;

namespace {

// `ninja -t commands` prints every command that builds the program, compiles included.
constexpr std::size_t kMaxNinjaCommandsBytes = 16u << 20;

std::string real_path(const std::string& path) {
  std::error_code ec;
  const fs::path p = fs::canonical(path, ec);
  return ec ? std::string() : p.string();
}

}  // namespace

std::optional<LinkScript> Session::link_command(const std::string& root, const std::string& program,
                                                const exec::ProcessSpec& spec) {
  if (std::optional<LinkScript> script = find_link_script(root, program)) return script;
  const auto ninja_dir = ninja_build_dir(root, program);
  if (!ninja_dir) return std::nullopt;
  // Ninja prints the commands that build the program; it runs nothing for `-t commands`.
  exec::ProcessSpec ask = spec;
  ask.command =
      "ninja -t commands " + shell_quote(fs::path(program).lexically_relative(*ninja_dir).string());
  ask.cwd = *ninja_dir;
  ask.log_path.clear();
  ask.tail_bytes = kMaxNinjaCommandsBytes;
  const exec::ProcessResult p = processes_.run(ask);
  child_seconds_ += p.wall_seconds;
  if (!p.ok() || p.output_bytes > kMaxNinjaCommandsBytes) return std::nullopt;
  const auto line = ninja_link_line(p.output_tail);
  if (!line) return std::nullopt;
  return LinkScript{*ninja_dir + "/build.ninja", *ninja_dir, *line};
}

std::optional<std::string> Session::relink_side(const Results& results, Side side) {
  const std::string& worktree = side == Side::Base ? setup_.base_dir : setup_.head_dir;
  const std::string root = real_path(worktree);
  if (root.empty()) return fmt::format("the {}'s worktree cannot be read", side_name(side));
  progress_(
      fmt::format("relinking the {}'s timed programs at +16, +32 and +48 bytes of code (the "
                  "placement control)",
                  side_name(side)));
  const std::string dir = placement_dir(root);
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::create_directories(dir, ec);
  if (ec) return fmt::format("cannot make {}: {}", dir, ec.message());
  exec::ProcessSpec spec;
  spec.cwd = root;
  spec.timeout_seconds = results.config.build_timeout_seconds;
  spec.scrub_env = results.config.scrub_env;
  spec.log_path = fmt::format("{}/placement-{}.log", setup_.log_dir, to_string(side));
  spec.tail_bytes = exec::kBuildTailBytes;
  const auto run = [&](const std::string& command,
                       const std::string& cwd) -> std::optional<std::string> {
    spec.command = command;
    spec.cwd = cwd;
    const exec::ProcessResult p = processes_.run(spec);
    child_seconds_ += p.wall_seconds;
    if (p.ok()) return std::nullopt;
    return fmt::format("`{}` failed: {} (log: {})", command,
                       p.describe_failure(spec.timeout_seconds).value_or("failed"), spec.log_path);
  };
  std::set<std::string> programs;
  std::set<int> pads;
  for (const SuiteConfig& suite : results.config.suites) {
    if (!Config::measures_time(suite)) continue;
    const auto word = leading_program(suite.run);
    const std::string program =
        word ? real_path(word->front() == '/' ? *word : worktree + "/" + *word) : "";
    if (program.empty() || program.rfind(root + "/", 0) != 0 || !is_elf_file(program))
      return fmt::format("suite {} does not run an executable built in the worktree", suite.name);
    if (!programs.insert(program).second) continue;
    const std::optional<LinkScript> script = link_command(root, program, spec);
    if (!script || !shifted_link_line(script->line, script->cwd, program, "pad.o", "out"))
      return fmt::format(
          "no link command of its build writes {} (a CMake build tree's CMakeFiles/<target>.dir/"
          "link.txt, or `ninja -t commands`)",
          *word);
    const std::string relative = fs::path(program).lexically_relative(root).string();
    for (std::size_t k = 1; k < kPlacementShifts.size(); ++k) {
      const int shift = kPlacementShifts[k];
      const std::string pad = fmt::format("{}/pad{}.o", dir, shift);
      if (pads.insert(shift).second) {
        const std::string source = fmt::format("{}/pad{}.s", dir, shift);
        try {
          file_system_.write_atomically(source, pad_assembly(shift));
        } catch (const Error& e) {
          return std::string("the pad cannot be written: ") + e.what();
        }
        if (auto failed = run(
                fmt::format("{} -c -x assembler {} -o {}", shell_quote(link_driver(script->line)),
                            shell_quote(source), shell_quote(pad)),
                dir))
          return "the pad did not assemble: " + *failed;
      }
      const std::string output = placement_variant_path(root, relative, shift);
      fs::create_directories(fs::path(output).parent_path(), ec);
      const auto line = shifted_link_line(script->line, script->cwd, program, pad, output);
      if (!line) return fmt::format("the link command of {} cannot be rewritten", *word);
      if (auto failed = run(*line, script->cwd))
        return fmt::format("{} did not relink: {}", *word, *failed);
      if (!is_elf_file(output))
        return fmt::format("relinking {} left no program at {}", *word, output);
      try {
        if (sha256_file(output) == sha256_file(program))
          return fmt::format("a {}-byte pad did not change {}", shift, *word);
      } catch (const FileDigestError& e) {
        return fmt::format("the relinked {} cannot be read: {}", *word, e.what());
      }
      if (const auto differs = relinked_differs(program, output))
        return fmt::format(
            "{} relinked at +{} bytes is not the program moved ({}): its link "
            "command links other code when relinked",
            *word, shift, *differs);
    }
  }
  return std::nullopt;
}

std::optional<std::string> Session::placement_control_wanted(const Results& results) const {
  const Config& c = results.config;
  // Without a build of benchpr's the build trees may be another revision's: nothing to relink.
  if (!c.placement_control || results.origin != Origin::Revisions || c.build.empty() ||
      setup_.skip_build || setup_.resume)
    return "";
  for (const SuiteConfig& s : c.suites)
    if (Config::measures_time(s)) return std::nullopt;
  return "";
}

}  // namespace benchpr::runner
