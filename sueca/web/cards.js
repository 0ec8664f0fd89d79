// Card faces drawn as inline SVG: no image is fetched, every face is sharp at any size.
// A card is its RECORD.md name: rank letter then suit letter ("7H", "AS", "QC").
"use strict";

const SUIT_PATHS = {
  // Each suit drawn in a 100×100 box.
  H: '<path d="M50 90C22 68 4 50 4 30 4 15 16 5 29 5c10 0 17 6 21 14 4-8 11-14 21-14 13 0 25 10 25 25 0 20-18 38-46 60z"/>',
  D: '<path d="M50 2 88 50 50 98 12 50z"/>',
  S: '<path d="M50 4C64 24 95 40 95 62c0 14-10 23-22 23-9 0-15-4-19-10 1 9 5 15 13 21H33c8-6 12-12 13-21-4 6-10 10-19 10C15 85 5 76 5 62 5 40 36 24 50 4z"/>',
  C: '<circle cx="50" cy="27" r="21"/><circle cx="26" cy="58" r="21"/><circle cx="74" cy="58" r="21"/><path d="M50 40c1 28 6 43 17 56H33c11-13 16-28 17-56z"/>',
};
const SUIT_ORDER = "SHCD"; // display order: colours alternate
const RANK_ORDER = "A7KJQ65432"; // strongest first
const RED = { H: true, D: true };

// Where the pips sit on a 60×84 card, for the plain ranks.
const PIPS = {
  2: [[30, 21], [30, 63]],
  3: [[30, 21], [30, 42], [30, 63]],
  4: [[20, 21], [40, 21], [20, 63], [40, 63]],
  5: [[20, 21], [40, 21], [30, 42], [20, 63], [40, 63]],
  6: [[20, 21], [40, 21], [20, 42], [40, 42], [20, 63], [40, 63]],
  7: [[20, 21], [40, 21], [30, 31.5], [20, 42], [40, 42], [20, 63], [40, 63]],
};

function suitGlyph(suit, x, y, size, rotate = false) {
  const scale = size / 100;
  const turn = rotate ? ` rotate(180 50 50)` : "";
  return `<g transform="translate(${x - size / 2} ${y - size / 2}) scale(${scale})${turn}">${SUIT_PATHS[suit]}</g>`;
}

function rankLabel(rank) {
  if (rank === "K" || rank === "J" || rank === "Q") return t(`face_${rank}`);
  return rank;
}

function cardLabel(card) {
  return t("card_of", { rank: t(`rank_${card[0]}`), suit: t(`suit_${card[1]}`) });
}

function cardSvg(card) {
  const rank = card[0];
  const suit = card[1];
  const color = RED[suit] ? "#c0262d" : "#1d1d22";
  const label = rankLabel(rank);
  const corner = (flip) => {
    const g = `<text x="6.5" y="13" class="rank" text-anchor="middle">${label}</text>${suitGlyph(suit, 6.5, 19.5, 7)}`;
    return flip ? `<g transform="rotate(180 30 42)">${g}</g>` : g;
  };
  let middle = "";
  if (rank === "A") {
    middle = suitGlyph(suit, 30, 42, 30);
  } else if (PIPS[rank]) {
    middle = PIPS[rank].map(([x, y]) => suitGlyph(suit, x, y, 12, y > 45)).join("");
  } else {
    // Court cards: a framed panel, the suit above and (turned) below, the letter between.
    middle = `<rect x="12" y="11" width="36" height="62" rx="3" class="court"/>
      <rect x="14.5" y="13.5" width="31" height="57" rx="2" class="court-inner"/>
      ${suitGlyph(suit, 30, 24, 11)}
      <text x="30" y="49.5" class="court-letter" text-anchor="middle">${label}</text>
      ${suitGlyph(suit, 30, 61, 11, true)}`;
  }
  return `<svg viewBox="0 0 60 84" class="face" fill="${color}" aria-hidden="true" focusable="false">
    <rect x="0.5" y="0.5" width="59" height="83" rx="4.5" class="paper"/>
    ${corner(false)}${corner(true)}${middle}</svg>`;
}

function cardBackSvg() {
  return `<svg viewBox="0 0 60 84" class="face back" aria-hidden="true" focusable="false">
    <defs><pattern id="lattice" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
      <rect width="6" height="6" fill="#1f4e8c"/><path d="M0 0H6M0 0V6" stroke="#6d9be0" stroke-width="1.2"/></pattern></defs>
    <rect x="0.5" y="0.5" width="59" height="83" rx="4.5" fill="#fff" stroke="#b9c3d3"/>
    <rect x="4" y="4" width="52" height="76" rx="3" fill="url(#lattice)"/></svg>`;
}

// Sort a hand for display: suits alternating in colour, strongest card first in each suit.
function sortHand(cards) {
  return [...cards].sort((a, b) =>
    SUIT_ORDER.indexOf(a[1]) - SUIT_ORDER.indexOf(b[1]) ||
    RANK_ORDER.indexOf(a[0]) - RANK_ORDER.indexOf(b[0]));
}

function suitSymbolSvg(suit, size = 18) {
  const color = RED[suit] ? "#c0262d" : "#1d1d22";
  return `<svg viewBox="0 0 100 100" width="${size}" height="${size}" fill="${color}" aria-hidden="true">${SUIT_PATHS[suit]}</svg>`;
}
