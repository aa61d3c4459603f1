// Reading notes by what they are about (their NoteKind) and whom they name (their code parts),
// for tests whose point is that a note is there, not how it is worded.
#pragma once

#include <string>
#include <vector>

#include "benchpr/core/model/model.hpp"

namespace benchpr::testing {

// The notes of `kind`, in their order.
inline std::vector<const Note*> notes_of_kind(const std::vector<Note>& notes, NoteKind kind) {
  std::vector<const Note*> out;
  for (const Note& n : notes)
    if (n.kind == kind) out.push_back(&n);
  return out;
}

// The names a note gives as code (benchmarks, suites, settings), in its order.
inline std::vector<std::string> names_in(const Note& note) {
  std::vector<std::string> out;
  for (const TextPart& p : note.parts)
    if (p.code) out.push_back(p.text);
  return out;
}

// The names of every note of `kind`, one list per note, in their order.
inline std::vector<std::vector<std::string>> names_in_notes(const std::vector<Note>& notes,
                                                            NoteKind kind) {
  std::vector<std::vector<std::string>> out;
  for (const Note* n : notes_of_kind(notes, kind)) out.push_back(names_in(*n));
  return out;
}

}  // namespace benchpr::testing
