// storage-proofs-core's insertion gadgets (gadgets/insertion.rs): put the current Merkle node among its
// siblings at the position its index bits give, one `pick` (a conditional select: one aux and one row) per
// choice. The picks of insert_4 and insert_8 come in rust-fil-proofs' order (a fixed table of selections per
// output position; insert_8 first allocates b0 NOR b1 and b0 AND b1); other sizes go through `select`.
#pragma once

#include <cstddef>
#include <span>
#include <stdexcept>
#include <vector>

#include "gadgets/boolean.hpp"
#include "gadgets/num.hpp"

namespace cuzk::gadgets {

// cond ? a : b, with the row (b − a)·cond = b − result.
template <class CS>
AllocatedNum pick(CS& cs, const Boolean& cond, const AllocatedNum& a, const AllocatedNum& b) {
  const AllocatedNum c =
      AllocatedNum::alloc(cs, [&]() -> const Fr& { return cond.value() ? a.value() : b.value(); });
  cs.enforce([&](LC& l) { l.add(b.variable()).sub(a.variable()); }, [&](LC& l) { cond.add_lc(l); },
             [&](LC& l) { l.add(b.variable()).sub(c.variable()); });
  return c;
}

// The element of `from` at the index `bits` give (least significant first): a binary tree of picks, the most
// significant bit first.
template <class CS>
AllocatedNum select(CS& cs, std::span<const AllocatedNum> from, std::span<const Boolean> bits) {
  if (from.size() != (std::size_t{1} << bits.size()))
    throw std::invalid_argument("select: 2^bits choices needed");
  std::vector<AllocatedNum> state(from.begin(), from.end());
  std::size_t half = from.size() / 2;
  for (std::size_t i = bits.size(); i-- > 0; half /= 2) {
    std::vector<AllocatedNum> next;
    next.reserve(half);
    for (std::size_t j = 0; j < half; ++j) next.push_back(pick(cs, bits[i], state[half + j], state[j]));
    state = std::move(next);
  }
  return state[0];
}

namespace insertion_detail {

template <class CS>
std::vector<AllocatedNum> insert_2(CS& cs, const AllocatedNum& x, const Boolean& b0, const AllocatedNum& s) {
  AllocatedNum r0 = pick(cs, b0, s, x);
  AllocatedNum r1 = pick(cs, b0, x, s);
  return {r0, r1};
}

template <class CS>
std::vector<AllocatedNum> insert_4(CS& cs, const AllocatedNum& a, std::span<const Boolean> bits,
                                   std::span<const AllocatedNum> s) {
  const Boolean &b0 = bits[0], &b1 = bits[1];
  const AllocatedNum &b = s[0], &c = s[1], &d = s[2];
  AllocatedNum p0_x0 = pick(cs, b0, b, a);
  AllocatedNum p0 = pick(cs, b1, b, p0_x0);
  AllocatedNum p1_x0 = pick(cs, b0, a, b);
  AllocatedNum p1 = pick(cs, b1, c, p1_x0);
  AllocatedNum p2_x1 = pick(cs, b0, d, a);
  AllocatedNum p2 = pick(cs, b1, p2_x1, c);
  AllocatedNum p3_x1 = pick(cs, b0, a, d);
  AllocatedNum p3 = pick(cs, b1, p3_x1, d);
  return {p0, p1, p2, p3};
}

template <class CS>
std::vector<AllocatedNum> insert_8(CS& cs, const AllocatedNum& a, std::span<const Boolean> bits,
                                   std::span<const AllocatedNum> s) {
  const Boolean &b0 = bits[0], &b1 = bits[1], &b2 = bits[2];
  if (b0.kind() != Boolean::Kind::kIs || b1.kind() != Boolean::Kind::kIs)
    throw std::invalid_argument("insert_8: the index bits must be allocated and not negated");
  const Boolean nor = AllocatedBit::nor(cs, b0.bit(), b1.bit());
  const Boolean both = AllocatedBit::and_(cs, b0.bit(), b1.bit());
  const AllocatedNum &b = s[0], &c = s[1], &d = s[2], &e = s[3], &f = s[4], &g = s[5], &h = s[6];
  AllocatedNum p0_xx0 = pick(cs, nor, a, b);
  AllocatedNum p0 = pick(cs, b2, b, p0_xx0);
  AllocatedNum p1_x00 = pick(cs, b0, a, b);
  AllocatedNum p1_xx0 = pick(cs, b1, c, p1_x00);
  AllocatedNum p1 = pick(cs, b2, c, p1_xx0);
  AllocatedNum p2_x10 = pick(cs, b0, d, a);
  AllocatedNum p2_xx0 = pick(cs, b1, p2_x10, c);
  AllocatedNum p2 = pick(cs, b2, d, p2_xx0);
  AllocatedNum p3_xx0 = pick(cs, both, a, d);
  AllocatedNum p3 = pick(cs, b2, e, p3_xx0);
  AllocatedNum p4_xx1 = pick(cs, nor, a, f);
  AllocatedNum p4 = pick(cs, b2, p4_xx1, e);
  AllocatedNum p5_x01 = pick(cs, b0, a, f);
  AllocatedNum p5_xx1 = pick(cs, b1, g, p5_x01);
  AllocatedNum p5 = pick(cs, b2, p5_xx1, f);
  AllocatedNum p6_x11 = pick(cs, b0, h, a);
  AllocatedNum p6_xx1 = pick(cs, b1, p6_x11, g);
  AllocatedNum p6 = pick(cs, b2, p6_xx1, g);
  AllocatedNum p7_xx1 = pick(cs, both, a, h);
  AllocatedNum p7 = pick(cs, b2, p7_xx1, h);
  return {p0, p1, p2, p3, p4, p5, p6, p7};
}

}  // namespace insertion_detail

// `element` inserted into `elements` at the position `bits` give (least significant first): the hash
// preimage of one Merkle level.
template <class CS>
std::vector<AllocatedNum> insert(CS& cs, const AllocatedNum& element, std::span<const Boolean> bits,
                                 std::span<const AllocatedNum> elements) {
  const std::size_t size = elements.size() + 1;
  if (size != (std::size_t{1} << bits.size())) throw std::invalid_argument("insert: 2^bits positions needed");
  if (size == 2) return insertion_detail::insert_2(cs, element, bits[0], elements[0]);
  if (size == 4) return insertion_detail::insert_4(cs, element, bits, elements);
  if (size == 8) return insertion_detail::insert_8(cs, element, bits, elements);
  std::vector<AllocatedNum> result;
  for (std::size_t pos = 0; pos < size; ++pos) {
    // Inserted at `index`, position `pos` holds elements[pos] before it, element at it, elements[pos − 1]
    // after.
    std::vector<AllocatedNum> choices;
    for (std::size_t index = 0; index < size; ++index)
      choices.push_back(pos < index ? elements[pos] : pos == index ? element : elements[pos - 1]);
    result.push_back(select(cs, std::span<const AllocatedNum>(choices), bits));
  }
  return result;
}

}  // namespace cuzk::gadgets
