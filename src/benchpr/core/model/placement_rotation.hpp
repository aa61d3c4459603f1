// The placement control's rotation (Results::placement_shifts): analysed round `number` (1-based)
// runs the programs relinked at offset index placement_slot(number, shifts), so each AB/BA block
// runs one placement in both orders, and the 2 * shifts rounds of a cycle run every placement
// once in each order. A reading of whole cycles weighs the placements equally whatever each does.
// Warm-up rounds run the programs as built (slot 0). One shift or none: always slot 0, cycle -1.
#pragma once

#include <cstddef>

namespace benchpr {

inline int placement_slot(int number, std::size_t shifts) {
  if (shifts < 2 || number < 1) return 0;
  return ((number - 1) / 2) % static_cast<int>(shifts);
}

inline int placement_cycle(int number, std::size_t shifts) {
  if (shifts < 2 || number < 1) return -1;
  return (number - 1) / (2 * static_cast<int>(shifts));
}

// How many rounds make whole cycles: `rounds` to the nearest multiple of 2 * shifts (halves up),
// at least one cycle; without the control, up to whole AB/BA blocks.
inline int whole_placement_cycles(int rounds, std::size_t shifts) {
  if (shifts < 2) return rounds <= 0 ? 2 : rounds + rounds % 2;
  const int step = 2 * static_cast<int>(shifts);
  return rounds <= step ? step : (rounds + step / 2) / step * step;
}

}  // namespace benchpr
