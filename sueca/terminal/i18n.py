"""The words of the table in Portuguese (Portugal), Brazilian Portuguese and English.

Plain data and plain functions, no terminal code, so that any front-end (the terminal table,
a web page) can speak the same words. Cards are written with the record's rank letters and the
suit symbols (``7♥``, ``A♠``): the international indices printed on most decks, and what the
player types back; the Portuguese names appear where a card is spelled out.

>>> pt = language("pt")
>>> pt.suit(1), pt.card_long(19), pt.card_long(18)
('copas', 'Ás de copas', 'Manilha de copas')
>>> language("en").text("must_follow", suit="hearts", cards=language("en").and_list(["7♥", "2♥"]))
'you must follow hearts: you hold 7♥ and 2♥'
>>> language("pt-br").code
'pt-BR'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from sueca.cards import SUIT_SYMBOLS, Card, card_rank, card_suit, card_symbol

if TYPE_CHECKING:
    from sueca.review.facts import Fact as FactLike


@dataclass(frozen=True)
class Language:
    """One language of the table: suit and rank names and every message, by key."""

    code: str
    name: str
    suits: tuple[str, str, str, str]  # spades, hearts, diamonds, clubs
    ranks: tuple[str, ...]  # long names, 2 … A in the engine's rank order
    card_of: str  # joins a rank and a suit: "{rank} de {suit}"
    conjunction: str  # "e", "and": the last link of a list
    messages: dict[str, str]
    reasons: dict[str, str] = field(default_factory=dict)  # bots' English reasons, translated
    # The letters a player of this language types for a card, as its web page shows them:
    # ranks in the engine's order (2 … A), suits spades, hearts, diamonds, clubs.
    rank_letters: str = "23456QJK7A"
    suit_letters: str = "SHDC"
    other_rank_words: tuple[tuple[str, int], ...] = ()  # more names of a rank: ("sete", 8)

    def suit(self, suit: int) -> str:
        return self.suits[suit]

    def suit_label(self, suit: int) -> str:
        """The suit as a heading: its symbol and its name, e.g. ``♥ copas``."""
        return f"{SUIT_SYMBOLS[suit]} {self.suits[suit]}"

    def card(self, card: Card) -> str:
        """The short form shown on the table: ``7♥``."""
        return card_symbol(card)

    def card_long(self, card: Card) -> str:
        """The card spelled out: ``Ás de copas``."""
        rank = self.ranks[card_rank(card)]
        return self.card_of.format(rank=rank, suit=self.suit(card_suit(card)))

    def and_list(self, items: Sequence[str]) -> str:
        """``7♥ e 2♥``; ``A♠, 7♠ e 2♠``; one item alone."""
        if len(items) <= 1:
            return "".join(items)
        return f"{', '.join(items[:-1])} {self.conjunction} {items[-1]}"

    def text(self, key: str, **values: object) -> str:
        """The message ``key`` with its ``{placeholders}`` filled in."""
        return self.messages[key].format(**values)

    def seat(self, seat: int, short: bool = False) -> str:
        """A seat as people count it, from 1 (``Jogador 1`` is seat 0): the web, the
        terminal and every command say the same; records and the engine count from 0."""
        return self.text("seat_short" if short else "seat", seat=seat + 1)

    def fact(self, fact: FactLike, past: bool = False,
             names: Sequence[str] | None = None) -> str:
        """A fact of :mod:`sueca.review.facts` in words: the present for a hint, the past for
        the review. Cards in the table's notation; a seat by ``names`` (the web's players)
        or, where that is empty, as the terminal names it (``Jogador 2``)."""
        values: dict[str, object] = {}
        if fact.card is not None:
            values["card"] = self.card(fact.card)
        if fact.suit is not None:
            values["suit"] = self.suit(fact.suit)
        if fact.seat is not None:
            named = names[fact.seat] if names and 0 <= fact.seat < len(names) else ""
            values["seat"] = named or self.seat(fact.seat)
        if fact.count is not None:
            values["count"] = fact.count
        return self.text(f"fact_{fact.key}" + ("_past" if past else ""), **values)

    def facts(self, facts: Sequence[FactLike], past: bool = False,
              names: Sequence[str] | None = None) -> str:
        """Facts joined into one reason: ``o 7♥ ainda estava por sair; …``."""
        return "; ".join(self.fact(f, past, names) for f in facts)

    def reason(self, text: str) -> str:
        """A bot's one-line reason (bots explain in English) in this language, part by part
        (parts are joined by ``; ``); a part not in the table is left as the bot wrote it."""
        parts = []
        for part in text.split("; "):
            for key, pattern in _REASON_PATTERNS:
                search = pattern.fullmatch(part)
                if search and key in self.reasons:
                    values = [self.reasons.get(g, g) for g in search.groups()]
                    part = self.reasons[key].format(*values)
            parts.append(self.reasons.get(part, part))
        return "; ".join(parts)


# ---- the messages ------------------------------------------------------------------------
# Keys are shared by every language; a test holds each language to the same keys and the same
# placeholders.

_EN: Final = {
    # sueca watch (WatchNarrator): seats numbered from 1.
    "watch_deal": "\n[bold]Deal {n}[/bold]: seat {dealer} deals, trump card {card}",
    "watch_deal_bids": ("\n[bold]Deal {n}[/bold]: seat {dealer} deals; bids {bids}; seat "
                        "{declarer} plays for {target}, calling {card}"),
    "watch_pass": "pass",
    "watch_trick": "  trick {k}  {cards}   → seat {winner} takes {points}",
    "watch_cry_right": "  seat {seat} cries renúncia: a revoke is proven",
    "watch_cry_wrong": "  seat {seat} cries renúncia: nobody revoked",
    "watch_contract_made": ("  seats {seats} take {points} of {total}: the contract is made; "
                            "game points {games}; match {match}"),
    "watch_contract_lost": ("  seats {seats} take {points} of {total}: the contract is lost; "
                            "game points {games}; match {match}"),
    "watch_deal_end": "  points {a}–{b}, game points {ga}–{gb}; match {ma}–{mb}",
    "watch_redeal": "\nSeat {seat} asks for a new deal (a weak hand): seat {dealer} deals again",
    "watch_player_won": "\nSeat {seat} wins the match: {score} (seat 1 first).",
    "watch_team_won": "\nTeam {team} (seats {seats}) wins the match {a}–{b}.",
    "redeal_asked": "{seat} asks for a new deal (a weak hand): {dealer} deals again",
    "redeal_asked_you": (
        "You ask for a new deal (your hand holds {points} points): {dealer} deals again"
    ),
    "prompt_redeal": (
        "Your hand holds {points} card points: ask for a new deal? (y/n; ? help, q quit): "
    ),
    "prompt_redeal_seat": (
        "{seat}, your hand holds {points} card points: ask for a new deal? (y/n; ? help, "
        "q quit): "
    ),
    "prompt_redeal_dummy": (
        "The dummy's hand holds {points} card points: ask for a new deal for it? (y/n; ? "
        "help, q quit): "
    ),
    "help_redeal": (
        "A weak hand may ask for a new deal: the opening leader with fewer than 10 card "
        "points, anyone else with fewer than 5 (by default). y asks (nobody scores, the "
        "same dealer deals again), n keeps the hand."
    ),
    "bad_redeal": "{text!r}? Answer y (a new deal) or n (keep the hand).",
    # Hot-seat: a hand that may only be kept is asked all the same (see Table.human_redeal).
    "prompt_keep_seat": (
        "{seat}, your hand holds {points} card points (a new deal needs fewer than {limit}): "
        "keep it? (n; ? help, q quit): "
    ),
    "prompt_keep_dummy": (
        "The dummy's hand holds {points} card points (a new deal needs fewer than {limit}): "
        "keep it? (n; ? help, q quit): "
    ),
    "redeal_only_keep": (
        "With {points} card points this hand may only be kept: a new deal needs fewer than "
        "{limit}. Answer n."
    ),
    "bad_keep": "{text!r}? Answer n (keep the hand).",
    # seats
    "you": "You",
    "seat": "Player {seat}",
    "seat_short": "P{seat}",
    "partner": "partner",
    "opponent": "opponent",
    "dummy": "dummy",
    "human": "human",
    "dealer": "deals",
    "to_play": "to play",
    "leads": "leads",
    "cards_left": "{count} cards",
    # the table
    "title": "Sueca",
    "deal_title": "Deal {number}",
    "trick_title": "trick {number} of {total}",
    "trump": "trump",
    "trump_is": "trump: {suit} ({card}, turned by {seat})",
    "trump_suit": "trump: {suit}",
    "your_hand": "Your cards",
    "hand_of": "Cards of {name}",
    "dummy_hand": "The dummy ({name})",
    "hidden_hand": "(hidden)",
    "cloth_empty": "(no card on the cloth)",
    "last_trick": "Trick to {seat} ({points} points)",
    "last_trick_you": "Trick to you ({points} points)",
    "points_taken": "Card points taken: Us {us} – Them {them}",
    "us": "Us",
    "them": "Them",
    "score_sheet": "Score sheet",
    "match_to": "match to {target}",
    "deal_short": "deal {number}",
    "total": "total",
    "hint": "Hint: {card} — {reason}",
    # events
    "deal_start": "Deal {number} · dealer: {dealer} · trump card {card} ({suit})",
    "plays": "{seat} plays {card}",
    "plays_you": "You play {card}",
    "plays_dummy": "{seat} plays {card} from the dummy",
    "plays_dummy_you": "You play {card} from the dummy",
    "takes_trick": "{seat} takes trick {number} ({points} points)",
    "takes_trick_you": "You take trick {number} ({points} points)",
    "deal_result": "Deal {number}: card points Us {us} – Them {them}; game points {g_us} / "
                   "{g_them}",
    "deal_tie": "Deal {number}: 60–60, a tie: nobody scores",
    "deal_tie_carry": "Deal {number}: a tie: the next deal is worth {carry} more",
    "match_score": "Match: Us {us} – Them {them}",
    "match_won": "We win the match, {us}–{them}!",
    "match_lost": "They win the match, {them}–{us}.",
    "match_team_won": "{team} wins the match, {score}.",
    "gato": "{score}: a gato, the losers never scored (the cat's face goes on the score "
            "sheet).",
    "chapeu": "{score}: a chapéu, the losers scored one game.",
    "record_saved": "Record saved: {path}",
    "resume_file_hint": "To continue: sueca play --resume --save {path}",
    "resumed": "Resuming the match in {path}",
    # prompts
    "prompt": "Your card (number or card, ? help, q quit): ",
    "prompt_dummy": "Card for the dummy (number or card, ? help, q quit): ",
    "prompt_seat": "{seat}, your card (number or card, ? help, q quit): ",
    "pass_to": "Pass the screen to {seat} and press Enter ",
    "continue": "Press Enter to continue ",
    "confirm_quit": "Quit? The match is saved and can be resumed (y/n): ",
    "not_quitting": "Playing on.",
    "input_ended": "Input ended before the match did: the match is saved.",
    "help": (
        "Type a card — 7h, AS, ♥7, h7 (rank A 7 K J Q 6 5 4 3 2; suit S spades, H hearts, "
        "D diamonds, C clubs) — or its number on the table; only the cards you may play are "
        "numbered, so 1 is always your first legal card.\n"
        "Cards rank A 7 K J Q 6 5 4 3 2; points A 11, 7 10, K 4, J 3, Q 2. Follow suit if you "
        "can; otherwise play anything, a trump included. ? this help, q quit (the match is "
        "saved: sueca play --resume continues it)."
    ),
    # illegal input
    "must_follow": "you must follow {suit}: you hold {cards}",
    "must_follow_other": "you must follow {suit}: {seat} holds {cards}",
    "must_trump": "you must trump: you have no {suit} and hold {cards}",
    "must_trump_other": "you must trump: {seat} has no {suit} and holds {cards}",
    "not_held": "you do not hold {card}",
    "not_held_other": "{seat} does not hold {card}",
    "no_such_number": "there is no card number {number} (1–{count})",
    "not_a_card": "not a card: {text!r} — type a card such as 7h, AS or ♥7, or its number "
                  "(? for help)",
    # replay
    "replay_prompt": "Enter next trick, b back, q quit: ",
    "replay_position": "Deal {deal} of {deals}, after trick {trick} of {tricks}",
    "replay_start": "Deal {deal} of {deals}: the cards as dealt",
    "replay_in_trick": "Deal {deal} of {deals}, in trick {trick} of {tricks}",
    "replay_cry": "{where}. {cry}",
    "replay_end": "End of the record.",
    # every table: many seats, two decks, the auction of five-player Sueca Italiana
    "declarer": "declarer",
    "unknown_side": "side unknown",
    "points_short": "{points} pts",
    "trump_not_called": "trump: not called yet",
    "bids_title": "Bids",
    "bid_pass": "pass",
    "contract_line": "Contract: {seat} plays for {target}{passed}, calls {card}: trump {suit}",
    "all_passed_short": " (everybody passed)",
    "partner_secret": "partner: secret until {card} is played",
    "partner_is": "partner: {seat}",
    "partner_you": "you hold {card}: you are the secret partner of {seat}",
    "alone_you": "you hold {card} yourself: you play alone against four (nobody knows)",
    "alone": "{seat} plays alone",
    "seat_points": "Card points: {list}",
    "two_decks": "two decks: a card may be held twice; of two equal winners the first wins",
    "deal_start_bidding": "Deal {number} · dealer: {dealer} · the dealer bids first",
    "bids": "{seat} bids {bid}",
    "bids_you": "You bid {bid}",
    "passes": "{seat} passes",
    "passes_you": "You pass",
    "all_passed": "Everybody passed: {seat}, the dealer, plays for 61",
    "contract": "{seat} plays for {target} and calls {card}: trump is {suit}",
    "contract_you": "You play for {target} and call {card}: trump is {suit}",
    "partner_revealed": "{card} is played: {seat} is the partner of {declarer}",
    "partner_revealed_yours": "{card} is played: your partner is {seat}",
    "partner_revealed_you": "You play {card}: now everyone knows you are the partner of "
                            "{declarer}",
    "alone_revealed": "{declarer} plays {card}: {declarer} plays alone",
    "alone_revealed_you": "You play {card}: now everyone knows you play alone",
    "contract_made": "Deal {number}: {side}: {points} card points for {target}: made",
    "contract_failed": "Deal {number}: {side}: {points} card points for {target}: failed",
    "side_alone": "{seat} alone",
    "side_pair": "{seat} and {partner}",
    "game_points_seats": "Game points: {list}",
    "match_score_seats": "Match (to {target}): {list}",
    "match_player_won": "{seat} wins the match ({score} game points).",
    "match_won_you": "You win the match with {score} game points!",
    "prompt_bid": "Your bid ({low}–{high}, or 0 to pass; ? help, q quit): ",
    "prompt_bid_seat": "{seat}, your bid ({low}–{high}, or 0 to pass; ? help, q quit): ",
    "prompt_bid_pass": "Your bid ({high} is bid: only 0, pass; ? help, q quit): ",
    "prompt_bid_pass_seat": "{seat}, your bid ({high} is bid: only 0, pass; ? help, q quit): ",
    "prompt_call": "Call a card: its suit is trump, its holder your secret partner (e.g. AH; "
                   "? help, q quit): ",
    "prompt_call_seat": "{seat}, call a card: its suit is trump, its holder your secret "
                        "partner (e.g. AH; ? help, q quit): ",
    "help_bid": (
        "Bid the card points you expect to take with your secret partner, 61 to 120, above "
        "the highest bid so far; or 0 to pass. The highest bidder calls a card: its suit is "
        "trump and its holder is the partner, secret until the card is played. If everybody "
        "passes, the dealer plays for 61. Each player of the winning side scores game points "
        "by the bid. ? this help, q quit."
    ),
    "help_call": (
        "Type a card (AH, 7S, KD …): its suit is trump and whoever holds it is your secret "
        "partner; if you hold it yourself you play alone against four. The usual call is the "
        "highest card you lack in your longest suit. ? this help, q quit."
    ),
    "bad_bid": "{bid} is not a bid you may make now: bid {low} to {high}, or 0 to pass",
    "bad_bid_pass": "{bid} is not a bid you may make now: {high} is bid, only 0 (pass) is left",
    "bad_call": "not a card: {text!r} — call a card such as AH, 7♠ or KD",
    "hint_bid_reason": "the hand is worth about {points} card points, calling {card}",
    "hint_call_reason": "with it your side should take about {points} card points",
    # renúncia (the renuncia option): a revoke is told to nobody; a cry of renúncia to all
    "help_renuncia": (
        "Renúncia: at this table a card that breaks the rule of play may be typed by name; "
        "nobody is told. r cries renúncia (a player of the other side has revoked this deal): "
        "right, the deal ends and they lose it; wrong, the other side scores a penalty. Until "
        "the next deal starts. At your own prompt r cries for you; at a shared screen, once "
        "the deal is over, r N cries for Player N."
    ),
    "denounced_right": "{seat} cries renúncia! Proven: the other side revoked, and the deal "
                       "ends",
    "denounced_right_you": "You cry renúncia! Proven: the other side revoked, and the deal "
                           "ends",
    "denounced_wrong": "{seat} cries renúncia! Wrong: nobody on the other side revoked "
                       "({penalty} to that side)",
    "denounced_wrong_you": "You cry renúncia! Wrong: nobody on the other side revoked "
                           "({penalty} to that side)",
    "deal_renuncia_us": "Deal {number}: our revoke is proven; game points {g_us} / {g_them}",
    "deal_renuncia_them": "Deal {number}: their revoke is proven; game points {g_us} / "
                          "{g_them}",
    "prompt_renuncia": "The deal is over: r cries renúncia, Enter plays on (? help, q quit): ",
    "no_denouncing": "No renúncia now: {reason}",
    "renuncia_too_early": "no card has been played yet",
    "renuncia_no_seat": "Player {seat} is not a person at this screen",
    "renuncia_own_prompt": "r here cries for {seat} only: {other} cries at their own prompt, "
                           "or once the deal is over",
    "renuncia_match_over": "the match is over, and its result stands",
}

_PT: Final = {
    # sueca watch (WatchNarrator): lugares numerados a partir de 1.
    "watch_deal": "\n[bold]Mão {n}[/bold]: o lugar {dealer} dá, trunfo {card}",
    "watch_deal_bids": ("\n[bold]Mão {n}[/bold]: o lugar {dealer} dá; licitações {bids}; o "
                        "lugar {declarer} joga para {target} e chama {card}"),
    "watch_pass": "passo",
    "watch_trick": "  vaza {k}  {cards}   → o lugar {winner} leva {points}",
    "watch_cry_right": "  o lugar {seat} acusa renúncia: com razão",
    "watch_cry_wrong": "  o lugar {seat} acusa renúncia: ninguém renunciou",
    "watch_contract_made": ("  os lugares {seats} fazem {points} de {total}: contrato cumprido; "
                            "jogos {games}; partida {match}"),
    "watch_contract_lost": ("  os lugares {seats} fazem {points} de {total}: contrato falhado; "
                            "jogos {games}; partida {match}"),
    "watch_deal_end": "  pontos {a}–{b}, jogos {ga}–{gb}; partida {ma}–{mb}",
    "watch_redeal": "\nO lugar {seat} pede nova mão (mão fraca): o lugar {dealer} volta a dar",
    "watch_player_won": "\nO lugar {seat} ganha a partida: {score} (o lugar 1 primeiro).",
    "watch_team_won": "\nA equipa {team} (lugares {seats}) ganha a partida {a}–{b}.",
    "redeal_asked": "{seat} pede nova mão (mão fraca): {dealer} volta a dar",
    "redeal_asked_you": "Pedes nova mão (a tua tem {points} pontos): {dealer} volta a dar",
    "prompt_redeal": "A tua mão tem {points} pontos: pedes nova mão? (s/n; ? ajuda, q sair): ",
    "prompt_redeal_seat": (
        "{seat}, a tua mão tem {points} pontos: pedes nova mão? (s/n; ? ajuda, q sair): "
    ),
    "prompt_redeal_dummy": (
        "A mão do morto tem {points} pontos: pedes nova mão por ele? (s/n; ? ajuda, q "
        "sair): "
    ),
    "help_redeal": (
        "Uma mão fraca pode pedir nova mão: quem sai primeiro com menos de 10 pontos, os "
        "outros com menos de 5 (por omissão). s pede (ninguém marca, quem deu volta a "
        "dar), n fica com a mão."
    ),
    "bad_redeal": "{text!r}? Responde s (nova mão) ou n (fico com a mão).",
    "prompt_keep_seat": (
        "{seat}, a tua mão tem {points} pontos (nova mão só com menos de {limit}): ficas "
        "com ela? (n; ? ajuda, q sair): "
    ),
    "prompt_keep_dummy": (
        "A mão do morto tem {points} pontos (nova mão só com menos de {limit}): ficas com "
        "ela? (n; ? ajuda, q sair): "
    ),
    "redeal_only_keep": (
        "Com {points} pontos esta mão só pode ficar: nova mão só com menos de {limit}. "
        "Responde n."
    ),
    "bad_keep": "{text!r}? Responde n (fico com a mão).",
    "you": "Tu",
    "seat": "Jogador {seat}",
    "seat_short": "J{seat}",
    "partner": "parceiro",
    "opponent": "adversário",
    "dummy": "morto",
    "human": "humano",
    "dealer": "dá as cartas",
    "to_play": "a jogar",
    "leads": "sai",
    "cards_left": "{count} cartas",
    "title": "Sueca",
    "deal_title": "Mão {number}",
    "trick_title": "vaza {number} de {total}",
    "trump": "trunfo",
    "trump_is": "trunfo: {suit} ({card}, virado por {seat})",
    "trump_suit": "trunfo: {suit}",
    "your_hand": "As tuas cartas",
    "hand_of": "Cartas de {name}",
    "dummy_hand": "O morto ({name})",
    "hidden_hand": "(escondidas)",
    "cloth_empty": "(nenhuma carta na mesa)",
    "last_trick": "Vaza para {seat} ({points} pontos)",
    "last_trick_you": "Vaza para ti ({points} pontos)",
    "points_taken": "Pontos feitos: Nós {us} – Eles {them}",
    "us": "Nós",
    "them": "Eles",
    "score_sheet": "Folha",
    "match_to": "partida a {target}",
    "deal_short": "mão {number}",
    "total": "total",
    "hint": "Sugestão: {card} — {reason}",
    "deal_start": "Mão {number} · dá as cartas: {dealer} · trunfo {card} ({suit})",
    "plays": "{seat} joga {card}",
    "plays_you": "Jogas {card}",
    "plays_dummy": "{seat} joga {card} do morto",
    "plays_dummy_you": "Jogas {card} do morto",
    "takes_trick": "{seat} faz a vaza {number} ({points} pontos)",
    "takes_trick_you": "Fazes a vaza {number} ({points} pontos)",
    "deal_result": "Mão {number}: pontos Nós {us} – Eles {them}; jogos {g_us} / {g_them}",
    "deal_tie": "Mão {number}: 60–60, empate: ninguém marca",
    "deal_tie_carry": "Mão {number}: empate: a próxima mão vale mais {carry}",
    "match_score": "Partida: Nós {us} – Eles {them}",
    "match_won": "Ganhámos a partida, {us}–{them}!",
    "match_lost": "Eles ganharam a partida, {them}–{us}.",
    "match_team_won": "{team} ganham a partida, {score}.",
    "gato": "{score}: um gato, os vencidos ficaram a zero (desenha-se a cara do gato na "
            "folha).",
    "chapeu": "{score}: um chapéu, os vencidos só fizeram um jogo.",
    "record_saved": "Registo guardado: {path}",
    "resume_file_hint": "Para continuar: sueca play --resume --save {path}",
    "resumed": "A continuar a partida em {path}",
    "prompt": "A tua carta (número ou carta, ? ajuda, q sair): ",
    "prompt_dummy": "Carta do morto (número ou carta, ? ajuda, q sair): ",
    "prompt_seat": "{seat}, a tua carta (número ou carta, ? ajuda, q sair): ",
    "pass_to": "Passa o ecrã a {seat} e carrega em Enter ",
    "continue": "Carrega em Enter para continuar ",
    "confirm_quit": "Sair? A partida fica guardada e pode continuar depois (s/n): ",
    "not_quitting": "Continuamos.",
    "input_ended": "A entrada acabou antes da partida: a partida ficou guardada.",
    "help": (
        "Escreve a carta — 7h, AS, ♥7, h7 (figura A 7 K J Q 6 5 4 3 2: A Ás, 7 Manilha, "
        "K Rei, J Valete, Q Dama; naipe S espadas, H copas, D ouros, C paus) — ou o seu número "
        "na mesa; só as cartas que podes jogar têm número, por isso 1 é sempre a tua primeira "
        "carta válida.\n"
        "Ordem: Ás, Manilha, Rei, Valete, Dama, 6 … 2; pontos: Ás 11, Manilha 10, Rei 4, "
        "Valete 3, Dama 2. Assiste ao naipe se puderes; se não, joga qualquer carta, trunfo "
        "incluído. ? esta ajuda, q sair (a partida fica guardada: sueca play --resume continua-a)."
    ),
    "must_follow": "tens de assistir a {suit}: tens {cards}",
    "must_follow_other": "tens de assistir a {suit}: {seat} tem {cards}",
    "must_trump": "tens de cortar: não tens {suit} e tens trunfo {cards}",
    "must_trump_other": "tens de cortar: {seat} não tem {suit} e tem trunfo {cards}",
    "not_held": "não tens o {card}",
    "not_held_other": "{seat} não tem o {card}",
    "no_such_number": "não há carta número {number} (1–{count})",
    "not_a_card": "isso não é uma carta: {text!r} — escreve por exemplo Rp, 7 de paus, ♥7 ou "
                  "7h, ou o número (? para ajuda)",
    "replay_prompt": "Enter vaza seguinte, b voltar, q sair: ",
    "replay_position": "Mão {deal} de {deals}, depois da vaza {trick} de {tricks}",
    "replay_start": "Mão {deal} de {deals}: as cartas como foram dadas",
    "replay_in_trick": "Mão {deal} de {deals}, na vaza {trick} de {tricks}",
    "replay_cry": "{where}. {cry}",
    "replay_end": "Fim do registo.",
    "declarer": "declarante",
    "unknown_side": "lado desconhecido",
    "points_short": "{points} pts",
    "trump_not_called": "trunfo: ainda por chamar",
    "bids_title": "Lances",
    "bid_pass": "passo",
    "contract_line": "Contrato: {seat} joga para {target}{passed}, chama o {card}: trunfo "
                     "{suit}",
    "all_passed_short": " (todos passaram)",
    "partner_secret": "parceiro: secreto até sair o {card}",
    "partner_is": "parceiro: {seat}",
    "partner_you": "tens o {card}: és o parceiro secreto de {seat}",
    "alone_you": "tens tu o {card}: jogas sozinho contra quatro (ninguém sabe)",
    "alone": "{seat} joga sozinho",
    "seat_points": "Pontos: {list}",
    "two_decks": "dois baralhos: uma carta pode estar duas vezes; de duas iguais ganha a "
                 "primeira",
    "deal_start_bidding": "Mão {number} · dá as cartas: {dealer} · quem dá licita primeiro",
    "bids": "{seat} licita {bid}",
    "bids_you": "Licitas {bid}",
    "passes": "{seat} passa",
    "passes_you": "Passas",
    "all_passed": "Todos passaram: {seat}, que deu as cartas, joga para 61",
    "contract": "{seat} joga para {target} e chama o {card}: trunfo {suit}",
    "contract_you": "Jogas para {target} e chamas o {card}: trunfo {suit}",
    "partner_revealed": "Saiu o {card}: {seat} é o parceiro de {declarer}",
    "partner_revealed_yours": "Saiu o {card}: o teu parceiro é {seat}",
    "partner_revealed_you": "Jogas o {card}: agora todos sabem que és o parceiro de "
                            "{declarer}",
    "alone_revealed": "{declarer} joga o {card}: {declarer} joga sozinho",
    "alone_revealed_you": "Jogas o {card}: agora todos sabem que jogas sozinho",
    "contract_made": "Mão {number}: {side}: {points} pontos para {target}: contrato cumprido",
    "contract_failed": "Mão {number}: {side}: {points} pontos para {target}: contrato falhado",
    "side_alone": "{seat} sozinho",
    "side_pair": "{seat} e {partner}",
    "game_points_seats": "Jogos: {list}",
    "match_score_seats": "Partida (a {target}): {list}",
    "match_player_won": "{seat} ganha a partida ({score} jogos).",
    "match_won_you": "Ganhaste a partida com {score} jogos!",
    "prompt_bid": "O teu lance ({low}–{high}, ou 0 para passar; ? ajuda, q sair): ",
    "prompt_bid_seat": "{seat}, o teu lance ({low}–{high}, ou 0 para passar; ? ajuda, q sair): ",
    "prompt_bid_pass": "O teu lance (já há {high}: só 0, passo; ? ajuda, q sair): ",
    "prompt_bid_pass_seat": "{seat}, o teu lance (já há {high}: só 0, passo; ? ajuda, q sair): ",
    "prompt_call": "Chama uma carta: o naipe é trunfo e quem a tiver é o teu parceiro secreto "
                   "(ex.: AH; ? ajuda, q sair): ",
    "prompt_call_seat": "{seat}, chama uma carta: o naipe é trunfo e quem a tiver é o teu "
                        "parceiro secreto (ex.: AH; ? ajuda, q sair): ",
    "help_bid": (
        "Licita os pontos que contas fazer com o teu parceiro secreto, de 61 a 120, acima do "
        "lance mais alto; ou 0 para passar. Quem licitar mais chama uma carta: o naipe dela é "
        "trunfo e quem a tiver é o parceiro, em segredo até a carta sair. Se todos passarem, "
        "quem deu as cartas joga para 61. Cada jogador do lado que ganha marca jogos conforme "
        "o lance. ? esta ajuda, q sair."
    ),
    "help_call": (
        "Escreve uma carta (AH, 7S, KD …): o naipe dela é trunfo e quem a tiver é o teu "
        "parceiro secreto; se a tiveres tu, jogas sozinho contra quatro. O costume é chamar a "
        "carta mais alta que te falta no teu naipe mais comprido. ? esta ajuda, q sair."
    ),
    "bad_bid": "{bid} não é um lance possível agora: licita de {low} a {high}, ou 0 para passar",
    "bad_bid_pass": "{bid} não é um lance possível agora: já há {high}, só podes passar (0)",
    "bad_call": "isso não é uma carta: {text!r} — chama por exemplo AH, 7♠ ou KD",
    "hint_bid_reason": "a mão vale uns {points} pontos, chamando o {card}",
    "hint_call_reason": "com ela o teu lado deve fazer uns {points} pontos",
    "help_renuncia": (
        "Renúncia: nesta mesa podes jogar pelo nome uma carta que falta à regra (não "
        "assistir, ou não cortar); ninguém é avisado. r grita renúncia (um jogador do outro "
        "lado renunciou nesta mão): se for verdade a mão acaba e eles perdem-na; se não, o "
        "outro lado marca um castigo. Até começar a mão seguinte. Na tua vez, r grita por "
        "ti; num ecrã partilhado, depois de a mão acabar, r N grita pelo Jogador N."
    ),
    "denounced_right": "{seat} grita renúncia! Provado: o outro lado renunciou, e a mão acaba",
    "denounced_right_you": "Gritas renúncia! Provado: o outro lado renunciou, e a mão acaba",
    "denounced_wrong": "{seat} grita renúncia! Falso: ninguém do outro lado renunciou "
                       "({penalty} para esse lado)",
    "denounced_wrong_you": "Gritas renúncia! Falso: ninguém do outro lado renunciou "
                           "({penalty} para esse lado)",
    "deal_renuncia_us": "Mão {number}: provada a nossa renúncia; jogos {g_us} / {g_them}",
    "deal_renuncia_them": "Mão {number}: provada a renúncia deles; jogos {g_us} / {g_them}",
    "prompt_renuncia": "A mão acabou: r grita renúncia, Enter segue (? ajuda, q sair): ",
    "no_denouncing": "Agora não há renúncia: {reason}",
    "renuncia_too_early": "ainda ninguém jogou uma carta",
    "renuncia_no_seat": "Jogador {seat} não é uma pessoa a este ecrã",
    "renuncia_own_prompt": "aqui r grita só por {seat}: {other} grita na sua vez, ou depois "
                           "de a mão acabar",
    "renuncia_match_over": "a partida acabou, e o resultado fica",
}

# Brazilian Portuguese: "você", "seguir o naipe", "tela"; the seven is the "sete" (in Portugal,
# the manilha).
_PT_BR: Final = _PT | {
    "redeal_asked_you": "Você pede nova mão (a sua tem {points} pontos): {dealer} dá de novo",
    "redeal_asked": "{seat} pede nova mão (mão fraca): {dealer} dá de novo",
    "prompt_redeal": "Sua mão tem {points} pontos: pede nova mão? (s/n; ? ajuda, q sair): ",
    "prompt_redeal_seat": (
        "{seat}, sua mão tem {points} pontos: pede nova mão? (s/n; ? ajuda, q sair): "
    ),
    "prompt_redeal_dummy": (
        "A mão do morto tem {points} pontos: pede nova mão por ele? (s/n; ? ajuda, q "
        "sair): "
    ),
    "help_redeal": (
        "Uma mão fraca pode pedir nova mão: quem sai primeiro com menos de 10 pontos, os "
        "outros com menos de 5 (por padrão). s pede (ninguém marca, quem deu dá de novo), "
        "n fica com a mão."
    ),
    "bad_redeal": "{text!r}? Responda s (nova mão) ou n (fico com a mão).",
    "prompt_keep_seat": (
        "{seat}, sua mão tem {points} pontos (nova mão só com menos de {limit}): fica com "
        "ela? (n; ? ajuda, q sair): "
    ),
    "prompt_keep_dummy": (
        "A mão do morto tem {points} pontos (nova mão só com menos de {limit}): fica com "
        "ela? (n; ? ajuda, q sair): "
    ),
    "redeal_only_keep": (
        "Com {points} pontos esta mão só pode ficar: nova mão só com menos de {limit}. "
        "Responda n."
    ),
    "bad_keep": "{text!r}? Responda n (fico com a mão).",
    "you": "Você",
    "dealer": "dá as cartas",
    "your_hand": "Suas cartas",
    "points_taken": "Pontos feitos: Nós {us} – Eles {them}",
    "match_won": "Ganhamos a partida, {us}–{them}!",
    "plays_you": "Você joga {card}",
    "last_trick_you": "Vaza para você ({points} pontos)",
    "plays_dummy_you": "Você joga {card} do morto",
    "takes_trick_you": "Você faz a vaza {number} ({points} pontos)",
    "gato": "{score}: um gato, os perdedores ficaram no zero.",
    "prompt": "Sua carta (número ou carta, ? ajuda, q sair): ",
    "prompt_seat": "{seat}, sua carta (número ou carta, ? ajuda, q sair): ",
    "pass_to": "Passe a tela para {seat} e aperte Enter ",
    "continue": "Aperte Enter para continuar ",
    "confirm_quit": "Sair? A partida fica salva e pode continuar depois (s/n): ",
    "record_saved": "Registro salvo: {path}",
    "input_ended": "A entrada acabou antes da partida: a partida ficou salva.",
    "help": (
        "Digite a carta — 7h, AS, ♥7, h7 (valor A 7 K J Q 6 5 4 3 2: A Ás, 7 Sete, K Rei, "
        "J Valete, Q Dama; naipe S espadas, H copas, D ouros, C paus) — ou o número dela na "
        "mesa; só as cartas que você pode jogar têm número, então 1 é sempre a sua primeira "
        "carta válida.\n"
        "Ordem: Ás, Sete, Rei, Valete, Dama, 6 … 2; pontos: Ás 11, Sete 10, Rei 4, Valete 3, "
        "Dama 2. Siga o naipe se puder; se não, jogue qualquer carta, trunfo incluído. "
        "? esta ajuda, q sair (a partida fica salva: sueca play --resume continua)."
    ),
    "must_follow": "você precisa seguir {suit}: você tem {cards}",
    "must_follow_other": "você precisa seguir {suit}: {seat} tem {cards}",
    "must_trump": "você precisa trunfar: não tem {suit} e tem trunfo {cards}",
    "must_trump_other": "você precisa trunfar: {seat} não tem {suit} e tem trunfo {cards}",
    "not_held": "você não tem o {card}",
    "not_a_card": "isso não é uma carta: {text!r} — digite por exemplo Rp, 7 de paus, ♥7 ou "
                  "7h, ou o número (? para ajuda)",
    "resumed": "Continuando a partida em {path}",
    "partner_you": "você tem o {card}: é o parceiro secreto de {seat}",
    "alone_you": "você mesmo tem o {card}: joga sozinho contra quatro (ninguém sabe)",
    "two_decks": "dois baralhos: uma carta pode vir duas vezes; de duas iguais ganha a "
                 "primeira",
    "bids": "{seat} dá lance de {bid}",
    "bids_you": "Você dá lance de {bid}",
    "passes_you": "Você passa",
    "contract_you": "Você joga para {target} e chama o {card}: trunfo {suit}",
    "partner_revealed_yours": "Saiu o {card}: seu parceiro é {seat}",
    "partner_revealed_you": "Você joga o {card}: agora todos sabem que você é o parceiro de "
                            "{declarer}",
    "alone_revealed_you": "Você joga o {card}: agora todos sabem que você joga sozinho",
    "match_won_you": "Você ganhou a partida com {score} jogos!",
    "prompt_bid": "Seu lance ({low}–{high}, ou 0 para passar; ? ajuda, q sair): ",
    "prompt_bid_seat": "{seat}, seu lance ({low}–{high}, ou 0 para passar; ? ajuda, q sair): ",
    "prompt_bid_pass": "Seu lance (já tem {high}: só 0, passo; ? ajuda, q sair): ",
    "prompt_bid_pass_seat": "{seat}, seu lance (já tem {high}: só 0, passo; ? ajuda, q sair): ",
    "prompt_call": "Chame uma carta: o naipe dela é trunfo e quem a tiver é seu parceiro "
                   "secreto (ex.: AH; ? ajuda, q sair): ",
    "prompt_call_seat": "{seat}, chame uma carta: o naipe dela é trunfo e quem a tiver é seu "
                        "parceiro secreto (ex.: AH; ? ajuda, q sair): ",
    "help_bid": (
        "Dê um lance com os pontos que você espera fazer com seu parceiro secreto, de 61 a "
        "120, acima do lance mais alto; ou 0 para passar. Quem der o maior lance chama uma "
        "carta: o naipe dela é trunfo e quem a tiver é o parceiro, em segredo até a carta "
        "sair. Se todos passarem, quem deu as cartas joga para 61. ? esta ajuda, q sair."
    ),
    "help_call": (
        "Digite uma carta (AH, 7S, KD …): o naipe dela é trunfo e quem a tiver é seu parceiro "
        "secreto; se você mesmo a tiver, joga sozinho contra quatro. O costume é chamar a "
        "carta mais alta que falta no seu naipe mais comprido. ? esta ajuda, q sair."
    ),
    "bad_bid": "{bid} não é um lance possível agora: dê um lance de {low} a {high}, ou 0 para "
               "passar",
    "bad_bid_pass": "{bid} não é um lance possível agora: já tem {high}, você só pode passar (0)",
    "bad_call": "isso não é uma carta: {text!r} — chame por exemplo AH, 7♠ ou KD",
    "hint_call_reason": "com ela seu lado deve fazer uns {points} pontos",
    "help_renuncia": (
        "Renúncia: nesta mesa você pode jogar pelo nome uma carta que quebra a regra (não "
        "seguir o naipe, ou não cortar); ninguém é avisado. r grita renúncia (um jogador do "
        "outro lado renunciou nesta mão): se for verdade a mão termina e eles a perdem; se "
        "não, o outro lado marca uma multa. Até começar a mão seguinte. Na sua vez, r grita "
        "por você; numa tela compartilhada, depois que a mão termina, r N grita pelo "
        "Jogador N."
    ),
    "denounced_right": "{seat} grita renúncia! Comprovado: o outro lado renunciou, e a mão "
                       "termina",
    "denounced_right_you": "Você grita renúncia! Comprovado: o outro lado renunciou, e a mão "
                           "termina",
    "denounced_wrong": "{seat} grita renúncia! Falso: ninguém do outro lado renunciou "
                       "({penalty} para esse lado)",
    "denounced_wrong_you": "Você grita renúncia! Falso: ninguém do outro lado renunciou "
                           "({penalty} para esse lado)",
    "deal_renuncia_us": "Mão {number}: comprovada a nossa renúncia; jogos {g_us} / {g_them}",
    "deal_renuncia_them": "Mão {number}: comprovada a renúncia deles; jogos {g_us} / {g_them}",
    "prompt_renuncia": "A mão terminou: r grita renúncia, Enter continua (? ajuda, q sair): ",
    "renuncia_no_seat": "Jogador {seat} não é uma pessoa nesta tela",
    "renuncia_own_prompt": "aqui r grita só por {seat}: {other} grita na própria vez, ou "
                           "depois que a mão termina",
    "renuncia_match_over": "a partida terminou, e o resultado vale",
}

# The review's and the hints' words (sueca/review): each fact of sueca.review.facts as a
# message "fact_<key>" (the present, for a hint) and "fact_<key>_past" (the review), the
# labels, and the review's table. {card} is the table's notation (7♥), {seat} a seat's name.
_REVIEW_EN: Final = {
    "fact_only_card": "the only card you may play",
    "fact_only_card_past": "it was the only card you could play",
    "fact_partner_winning": "your partner holds the trick with the {card}",
    "fact_partner_winning_past": "your partner held the trick with the {card}",
    "fact_opponent_winning": "the opponents hold the trick with the {card}",
    "fact_opponent_winning_past": "the opponents held the trick with the {card}",
    "fact_last_to_play": "you play last",
    "fact_last_to_play_past": "you played last",
    "fact_trick_points": "the trick holds {count} points",
    "fact_trick_points_past": "the trick held {count} points",
    "fact_still_out": "the {card} is still out",
    "fact_still_out_past": "the {card} was still out",
    "fact_master": "the {card} has been played",
    "fact_master_past": "the {card} had already been played",
    "fact_partner_void": "your partner has shown a void in {suit}",
    "fact_partner_void_past": "your partner had shown a void in {suit}",
    "fact_opponent_void": "{seat}, an opponent, has shown a void in {suit}",
    "fact_opponent_void_past": "{seat}, an opponent, had shown a void in {suit}",
    "fact_trumps_out": "trumps still out: {count}",
    "fact_trumps_out_past": "trumps still out then: {count}",
    "fact_no_trumps_out": "every other trump has been played",
    "fact_no_trumps_out_past": "every other trump had been played",
    "fact_ruff": "you have no {suit}: you may trump",
    "fact_ruff_past": "you had no {suit}: you could trump",
    "fact_discard": "you have neither {suit} nor a trump",
    "fact_discard_past": "you had neither {suit} nor a trump",
    "hint_expected": "your side should end with about {points} points",
    "label_inaccuracy": "inaccuracy",
    "label_mistake": "mistake",
    "label_blunder": "blunder",
    "review_title": "Deal {deal}, {seat} (team {side}): {final} points",
    "review_trick": "Trick",
    "review_card": "Card",
    "review_best": "Best",
    "review_expected": "Expected",
    "review_lost": "Lost",
    "review_label": "Label",
    "review_why": "Why",
    "review_dd": "Every hand known",
    "review_dd_note": (
        "Expected: your side's final points after the card, from what you knew (worlds "
        "sampled and solved; ± two standard errors). Every hand known: the double-dummy "
        "view, never used for a label."
    ),
    "review_total": "Points lost in all: {lost}",
    "review_crossing": "After {card} ({seat}), with every hand known, team {side}: {before} → "
                       "{after} games",
    "review_stopped_revoke": "The review stops at the first revoke: after it, what the seats "
                             "saw is no longer what the cards say.",
    "review_stopped_denunciation": "The review stops at the first cry of renúncia.",
}
_REVIEW_PT: Final = {
    "fact_only_card": "é a única carta que podes jogar",
    "fact_only_card_past": "era a única carta que podias jogar",
    "fact_partner_winning": "a vaza é do teu parceiro, com o {card}",
    "fact_partner_winning_past": "a vaza era do teu parceiro, com o {card}",
    "fact_opponent_winning": "a vaza é dos adversários, com o {card}",
    "fact_opponent_winning_past": "a vaza era dos adversários, com o {card}",
    "fact_last_to_play": "és o último a jogar",
    "fact_last_to_play_past": "eras o último a jogar",
    "fact_trick_points": "a vaza já leva {count} pontos",
    "fact_trick_points_past": "a vaza já levava {count} pontos",
    "fact_still_out": "o {card} ainda está por sair",
    "fact_still_out_past": "o {card} ainda estava por sair",
    "fact_master": "o {card} já saiu",
    "fact_master_past": "o {card} já tinha saído",
    "fact_partner_void": "o teu parceiro já mostrou que não tem {suit}",
    "fact_partner_void_past": "o teu parceiro já tinha mostrado que não tinha {suit}",
    "fact_opponent_void": "o {seat}, adversário, já mostrou que não tem {suit}",
    "fact_opponent_void_past": "o {seat}, adversário, já tinha mostrado que não tinha {suit}",
    "fact_trumps_out": "trunfos ainda por sair: {count}",
    "fact_trumps_out_past": "trunfos ainda por sair então: {count}",
    "fact_no_trumps_out": "já saíram todos os outros trunfos",
    "fact_no_trumps_out_past": "já tinham saído todos os outros trunfos",
    "fact_ruff": "não tens {suit}: podes cortar",
    "fact_ruff_past": "não tinhas {suit}: podias cortar",
    "fact_discard": "não tens {suit} nem trunfo",
    "fact_discard_past": "não tinhas {suit} nem trunfo",
    "hint_expected": "o teu lado deve acabar com uns {points} pontos",
    "label_inaccuracy": "imprecisão",
    "label_mistake": "erro",
    "label_blunder": "erro grave",
    "review_title": "Mão {deal}, {seat} (equipa {side}): {final} pontos",
    "review_trick": "Vaza",
    "review_card": "Carta",
    "review_best": "Melhor",
    "review_expected": "Esperado",
    "review_lost": "Perdido",
    "review_label": "Nota",
    "review_why": "Porquê",
    "review_dd": "Mãos à vista",
    "review_dd_note": (
        "Esperado: os pontos finais do teu lado depois da carta, pelo que sabias (mãos "
        "sorteadas e resolvidas; ± dois erros-padrão). Mãos à vista: com todas as cartas à "
        "vista, nunca usado para dar nota."
    ),
    "review_total": "Pontos perdidos ao todo: {lost}",
    "review_crossing": "Depois do {card} ({seat}), com as mãos à vista, a equipa {side}: "
                       "{before} → {after} jogos",
    "review_stopped_revoke": "A revisão para na primeira renúncia: depois dela o que os "
                             "jogadores viam já não é o que as cartas dizem.",
    "review_stopped_denunciation": "A revisão para no primeiro grito de renúncia.",
}
_REVIEW_PT_BR: Final = _REVIEW_PT | {
    "fact_only_card": "é a única carta que você pode jogar",
    "fact_only_card_past": "era a única carta que você podia jogar",
    "fact_partner_winning": "a vaza é do seu parceiro, com o {card}",
    "fact_partner_winning_past": "a vaza era do seu parceiro, com o {card}",
    "fact_last_to_play": "você é o último a jogar",
    "fact_last_to_play_past": "você era o último a jogar",
    "fact_trick_points": "a vaza já tem {count} pontos",
    "fact_trick_points_past": "a vaza já tinha {count} pontos",
    "fact_still_out": "o {card} ainda não saiu",
    "fact_still_out_past": "o {card} ainda não tinha saído",
    "fact_partner_void": "seu parceiro já mostrou que não tem {suit}",
    "fact_partner_void_past": "seu parceiro já tinha mostrado que não tinha {suit}",
    "fact_no_trumps_out": "todos os outros trunfos já saíram",
    "fact_ruff": "você não tem {suit}: pode cortar",
    "fact_ruff_past": "você não tinha {suit}: podia cortar",
    "fact_discard": "você não tem {suit} nem trunfo",
    "fact_discard_past": "você não tinha {suit} nem trunfo",
    "hint_expected": "seu lado deve terminar com uns {points} pontos",
    "review_title": "Mão {deal}, {seat} (time {side}): {final} pontos",
    "review_dd_note": (
        "Esperado: os pontos finais do seu lado depois da carta, pelo que você sabia (mãos "
        "sorteadas e resolvidas; ± dois erros-padrão). Mãos à vista: com todas as cartas à "
        "vista, nunca usado para dar nota."
    ),
    "review_crossing": "Depois do {card} ({seat}), com as mãos à vista, o time {side}: "
                       "{before} → {after} jogos",
    "review_stopped_revoke": "A revisão para na primeira renúncia: depois dela o que os "
                             "jogadores viam já não é o que as cartas dizem.",
}

# The reasons of the bots' explain(), as the bots word them (sueca/bots).
_ISMCTS_REASON: Final = re.compile(
    r"ismcts: (\w+) chosen in (\d+) of (\d+) simulations, expecting about (\d+) points for "
    r"our side"
)
_PIMC_REASON: Final = re.compile(
    r"pimc: (\w+) averages ([\d.]+) points for our side over (\d+) sampled deals "
    r"(played out by the heuristic from each card|solved double-dummy)"
)
# The reasons with numbers in them: a pattern, and the key of its translation (whose {0}, {1}…
# are the pattern's groups, each itself translated when the table has it).
_REASON_PATTERNS: Final = (("ismcts", _ISMCTS_REASON), ("pimc", _PIMC_REASON))
_REASONS_PT: Final = {
    "the only legal card": "a única carta que podes jogar",
    "long in trumps with the ace or seven: draw the opponents' trumps":
        "muitos trunfos, com o Ás ou a Manilha: puxa os trunfos dos adversários",
    "the master of its suit, and no opponent is known to ruff it":
        "a carta mais alta do naipe, e nenhum adversário se sabe que corte",
    "partner is void in this suit and can ruff": "o parceiro não tem este naipe e pode cortar",
    "a blank card from a long suit: give nothing away":
        "uma carta sem pontos de um naipe comprido: não dês nada",
    "no blank cards left: lead the safest honour":
        "já não há cartas sem pontos: sai com a figura mais segura",
    "only trumps left: lead the lowest": "só restam trunfos: sai com o mais baixo",
    "partner has this trick: feed it points": "a vaza é do parceiro: carrega-a de pontos",
    "partner is winning but may be beaten: play low":
        "o parceiro vai a ganhar mas ainda pode perder: joga baixo",
    "the opponents have this trick: give them nothing":
        "a vaza é dos adversários: não lhes dês nada",
    "win the trick with the cheapest card that holds it":
        "ganha a vaza com a carta mais barata que a segura",
    "last to play: take the points": "és o último a jogar: leva os pontos",
    "many seats still to play: the cheapest card likely to hold":
        "ainda faltam muitos jogadores: a carta mais barata que deve segurar a vaza",
    "partner's echo shows a void": "o sinal do parceiro mostra que não tem o naipe",
    "echo to partner": "sinal ao parceiro",
    "ismcts": "ismcts: {0} escolhida em {1} de {2} simulações, à espera de uns {3} pontos "
              "para o nosso lado",
    "pimc": "pimc: {0} dá em média {1} pontos ao nosso lado em {2} mãos sorteadas {3}",
    "played out by the heuristic from each card":
        "jogadas até ao fim pela heurística a partir de cada carta",
    "solved double-dummy": "resolvidas com as cartas todas à vista",
    # The seeds' tips (heuristic:tips=…, docs/arena.md).
    "past 90 with every high card: press for the capotão":
        "já passámos os 90 e temos as cartas altas: aperta para o capotão",
    "fewer than 4 trumps left with the opponents: cash the masters":
        "os adversários têm menos de 4 trunfos: joga as cartas mestras",
    "partner played high third hand in this suit: continue it":
        "o parceiro jogou alto em terceiro neste naipe: continua-o",
    "a blank card, not of a suit partner threw away":
        "uma carta sem pontos, de um naipe que o parceiro não deitou fora",
    "partner's lead may be a singleton: play high to keep the lead":
        "a saída do parceiro pode ser seca: joga alto para ficar com a mão",
    "pressing for the capotão: make sure of partner's trick":
        "a apertar para o capotão: garante a vaza do parceiro",
}
_REASONS_PT_BR: Final = _REASONS_PT | {
    "past 90 with every high card: press for the capotão":
        "já passamos dos 90 e temos as cartas altas: aperte para o capotão",
    "fewer than 4 trumps left with the opponents: cash the masters":
        "os adversários têm menos de 4 trunfos: jogue as cartas mestras",
    "partner played high third hand in this suit: continue it":
        "o parceiro jogou alto em terceiro neste naipe: continue nele",
    "partner's lead may be a singleton: play high to keep the lead":
        "a saída do parceiro pode ser seca: jogue alto para ficar com a mão",
    "pressing for the capotão: make sure of partner's trick":
        "apertando para o capotão: garanta a vaza do parceiro",
    "the only legal card": "a única carta que você pode jogar",
    "long in trumps with the ace or seven: draw the opponents' trumps":
        "muitos trunfos, com o Ás ou o Sete: puxe os trunfos dos adversários",
    "a blank card from a long suit: give nothing away":
        "uma carta sem pontos de um naipe comprido: não dê nada",
    "no blank cards left: lead the safest honour":
        "não há mais cartas sem pontos: saia com a figura mais segura",
    "only trumps left: lead the lowest": "só restam trunfos: saia com o mais baixo",
    "partner has this trick: feed it points": "a vaza é do parceiro: jogue pontos nela",
    "partner is winning but may be beaten: play low":
        "o parceiro está ganhando mas ainda pode perder: jogue baixo",
    "the opponents have this trick: give them nothing":
        "a vaza é dos adversários: não dê nada a eles",
    "win the trick with the cheapest card that holds it":
        "ganhe a vaza com a carta mais barata que a segura",
    "last to play: take the points": "você é o último a jogar: leve os pontos",
    "many seats still to play: the cheapest card likely to hold":
        "ainda faltam muitos jogadores: a carta mais barata que deve segurar a vaza",
    "ismcts": "ismcts: {0} escolhida em {1} de {2} simulações, esperando uns {3} pontos "
              "para o nosso lado",
    "played out by the heuristic from each card":
        "jogadas até o fim pela heurística a partir de cada carta",
}

_RANKS_EN: Final = ("two", "three", "four", "five", "six", "queen", "jack", "king", "seven",
                    "ace")
_RANKS_PT: Final = ("Dois", "Três", "Quatro", "Cinco", "Seis", "Dama", "Valete", "Rei",
                    "Manilha", "Ás")
_RANKS_PT_BR: Final = (*_RANKS_PT[:8], "Sete", "Ás")
# A Portuguese table's card letters (the web page's R, V, D; espadas, copas, ouros, paus) and
# the other names of the seven.
_LETTERS_PT: Final = ("23456DVR7A", "ECOP", (("sete", 8), ("manilha", 8), ("bisca", 8)))

LANGUAGES: Final[dict[str, Language]] = {
    "pt": Language("pt", "português", ("espadas", "copas", "ouros", "paus"), _RANKS_PT,
                   "{rank} de {suit}", "e", _PT | _REVIEW_PT, _REASONS_PT, *_LETTERS_PT),
    "pt-BR": Language("pt-BR", "português do Brasil", ("espadas", "copas", "ouros", "paus"),
                      _RANKS_PT_BR, "{rank} de {suit}", "e", _PT_BR | _REVIEW_PT_BR,
                      _REASONS_PT_BR, *_LETTERS_PT),
    "en": Language("en", "English", ("spades", "hearts", "diamonds", "clubs"), _RANKS_EN,
                   "{rank} of {suit}", "and", _EN | _REVIEW_EN),
}

DEFAULT_LANGUAGE: Final = "pt"


def language(code: str) -> Language:
    """A language by code, case-insensitively: ``pt`` (the default), ``pt-BR``, ``en``."""
    for known, lang in LANGUAGES.items():
        if code.strip().lower().replace("_", "-") == known.lower():
            return lang
    raise ValueError(f"unknown language {code!r} (known: {', '.join(LANGUAGES)})")
