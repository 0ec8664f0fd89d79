// Interface strings in European Portuguese (the default), Brazilian Portuguese and English.
// The language follows the browser's, unless the player picks one with the switch.
"use strict";

const STRINGS = {
  "pt-PT": {
    lang_name: "Português (PT)",
    tagline: "O jogo de cartas de Portugal — quatro jogadores, duas equipas, 120 pontos.",
    lobby: "Salão", history: "Histórico", new_table: "Nova mesa", your_name: "O seu nome",
    rules: "Regras", preset_standard: "Portugal (padrão)", preset_brazil: "Brasil",
    preset_italiana: "Italiana (obrigatório trunfar)", preset_pontos: "Pontos (até 500)",
    match_to: "Partida até", games: "jogos", points_unit: "pontos",
    opt_must_trump: "Obrigatório trunfar quando não tem o naipe",
    opt_review_tricks: "Pode rever as vazas (para aprender)",
    opt_rolha: "Rolha", opt_tie_carry: "O empate passa para a mão seguinte",
    sweep: "Capote (120 pontos)", sweep_points: "vale 4 jogos",
    sweep_bandeira: "Bandeira (todas as vazas) ganha a partida",
    sweep_points_wins_match: "120 pontos ganham a partida",
    seats: "Lugares", seat_n: "Lugar {n}", you: "Você", partner: "Parceiro", opponent: "Adversário",
    kind_human: "Jogador (convidar)", kind_bot: "Bot", level: "Nível",
    open_table: "Mesa aberta: qualquer pessoa pode sentar-se num lugar livre",
    create_table: "Criar mesa", invitations: "Convites",
    invite_help: "Envie a cada amigo o convite do seu lugar. Quem tem o convite joga nesse lugar.",
    copy: "Copiar", copied: "Copiado!", take_my_seat: "Sentar-me à mesa",
    open_tables: "Mesas em jogo", no_tables: "Nenhuma mesa de momento.",
    watch: "Ver", sit: "Sentar", free: "livre", match_n: "Partida {n}",
    us: "Nós", them: "Eles", team_a: "Equipa A", team_b: "Equipa B",
    your_turn: "A sua vez", turn_of: "Vez de {name}", trump: "Trunfo", dealer: "Dá as cartas",
    status_away: "Ausente", status_stand_in: "Ausente — o bot joga", status_waiting: "À espera",
    status_bot: "Bot", spectator: "Está a ver", deal_n: "Mão {n}", tricks: "Vazas",
    points: "Pontos", game_points: "Jogos", end_of_deal: "Fim da mão", tie: "Empate",
    next_deal: "Próxima mão", waiting_others: "À espera dos outros…", match_over: "Fim da partida",
    we_won: "Ganhámos!", they_won: "Ganharam eles.", team_won: "{team} ganha a partida",
    rematch: "Desforra", hands: "Mãos", past_tricks: "Vazas jogadas", connecting: "A ligar…",
    reconnecting: "Ligação perdida — a religar…", no_table: "Esta mesa não existe.",
    score_sheet: "Folha de pontos", target: "Objetivo: {n}", total: "Total",
    your_hand: "A sua mão", cloth: "Mesa", playing_for: "Joga pelo morto ({name})",
    err_must_follow: "Tem de assistir ao naipe jogado.", err_must_trump: "Tem de trunfar.",
    err_not_your_turn: "Não é a sua vez.", err_bad_token: "Este convite não é válido.",
    err_not_in_hand: "Essa carta não está na sua mão.",
    finished_matches: "Partidas terminadas", no_matches: "Ainda não há partidas terminadas.",
    replay: "Rever", download: "Descarregar registo", trick_n: "Vaza {n}", previous: "Anterior",
    next: "Seguinte", start: "Início", winner: "Vencedor", players: "Jogadores", score: "Resultado",
    date: "Data", deal_start: "Mão distribuída", won_trick: "{name} leva a vaza ({p} pontos)",
    back_to_list: "Todas as partidas", language: "Língua", name_placeholder: "Ex.: Ana",
    last_trick: "Última vaza", card_points_now: "Pontos nesta mão",
    rank_A: "Ás", rank_7: "Sete", rank_K: "Rei", rank_J: "Valete", rank_Q: "Dama",
    rank_6: "Seis", rank_5: "Cinco", rank_4: "Quatro", rank_3: "Três", rank_2: "Dois",
    suit_S: "Espadas", suit_H: "Copas", suit_D: "Ouros", suit_C: "Paus", card_of: "{rank} de {suit}",
    face_K: "R", face_J: "V", face_Q: "D", unplayable: "não pode jogar",
    rules_standard: "Regras de Portugal", rules_brazil: "Regras do Brasil",
    rules_italiana: "Sueca italiana", rules_pontos: "Sueca de pontos", hidden: "carta escondida",
    cards_count: "{n} cartas",
    preset_double6: "Baralho duplo, 6 jogadores", preset_double8: "Baralho duplo, 8 jogadores",
    preset_italiana5: "Sueca italiana a 5 (licitação)",
    rules_double6: "Baralho duplo a 6", rules_double8: "Baralho duplo a 8",
    rules_italiana5: "Sueca italiana a 5", kind_dummy: "Morto (joga o parceiro)", dummy: "Morto",
    status_dummy: "morto", no_fixed_partner: "Parceiro secreto a cada mão",
    declarer_side: "Licitante", defenders: "Defesa", declarer: "Licitante", pass: "Passo",
    pts: "pts", auction: "Licitação", your_bid: "A sua licitação", bid: "Licitar",
    bid_range: "De {min} a {max} pontos, ou passe.", only_pass: "Já ninguém pode subir: passe.",
    your_bid_turn: "A sua vez de licitar", bid_turn_of: "{name} a licitar",
    your_call_turn: "Ganhou a licitação: chame uma carta", call_turn_of: "{name} chama uma carta",
    call_card: "Chame uma carta", call_help: "O naipe dela é trunfo; quem a tem é o seu parceiro secreto.",
    contract_line: "{name} joga para {n} pontos e chamou {card}",
    partner_secret: "parceiro secreto", partner_is: "parceiro: {name}", plays_alone: "joga sozinho",
    contract_made: "{name} fez os {n} pontos!", contract_failed: "{name} não fez os {n} pontos.",
    sides_points: "licitante {a} · defesa {b}", player_won: "{name} ganha a partida",
    each_player: "cada jogador conta os seus jogos",
    err_bad_bid: "Licitação inválida: licite de {min} a {max}, ou passe.",
    err_bad_call: "Essa carta não pode ser chamada.", err_not_now: "Agora não.",
    err_auction: "Ainda não: a licitação não acabou.",
    opt_weak_hand_redeal: "Mão fraca pode pedir nova mão (Brasil)",
    redeal_keep: "Ficar com a mão", redeal_ask: "Pedir nova mão",
    redeal_prompt: "A sua mão tem {p} pontos (menos de {limit}): pode pedir nova mão.",
    redeal_only_keep: "A sua mão tem {p} pontos: só com menos de {limit} pode pedir nova mão.",
    redeal_prompt_dummy: "A mão do morto tem {p} pontos (menos de {limit}): pode pedir nova mão por ele.",
    redeal_only_keep_dummy: "A mão do morto tem {p} pontos: só com menos de {limit} pode pedir nova mão por ele.",
    your_redeal_turn: "Fica com a mão ou pede nova mão?", redeal_turn_of: "{name} decide se pede nova mão",
    redeal_asked: "{name} pediu nova mão: {dealer} volta a dar.",
    err_bad_redeal: "Só uma mão fraca pode pedir nova mão.",
    redeal_before: "antes desta, {name} pediu nova mão ({p} pontos)",
    opt_renuncia: "Renúncia: pode jogar-se uma carta que não assiste, e a outra equipa pode acusá-la",
    opt_no_looking_back: "Não se pode ver a vaza que acabou de ser recolhida",
    open_hands: "Mãos à vista", open_none: "Nenhuma", open_all: "Todas (para aprender)",
    open_dealer_dummy: "À descoberta: quem dá e o parceiro",
    revoke_card: "não assiste (renúncia)", denounce: "Renúncia!", game_one: "jogo",
    denounce_help: "Acusar renúncia: alguém da outra equipa não assistiu (ou não trunfou) podendo.",
    denounced_correct: "{name} acusou renúncia — com razão. A mão vai para {team}: {n}.",
    denounced_wrong: "{name} acusou renúncia — sem razão: {n} para {team}.",
    summary_revoke: "Renúncia provada: {n} para {team}.",
    summary_false: "Acusação de renúncia sem razão: {n} para {team}.",
    err_bad_denounce: "Agora não pode acusar renúncia.",
  },
  "pt-BR": {
    lang_name: "Português (BR)",
    tagline: "O jogo de cartas de Portugal — quatro jogadores, duas duplas, 120 pontos.",
    lobby: "Salão", history: "Histórico", new_table: "Nova mesa", your_name: "Seu nome",
    rules: "Regras", preset_standard: "Portugal (padrão)", preset_brazil: "Brasil",
    preset_italiana: "Italiana (trunfo obrigatório)", preset_pontos: "Pontos (até 500)",
    match_to: "Partida até", games: "jogos", points_unit: "pontos",
    opt_must_trump: "Obrigatório trunfar quando não tem o naipe",
    opt_review_tricks: "Pode rever as vazas (para aprender)",
    opt_rolha: "Rolha", opt_tie_carry: "O empate acumula para a próxima mão",
    sweep: "Capote (120 pontos)", sweep_points: "vale 4 jogos",
    sweep_bandeira: "Bandeira (todas as vazas) ganha a partida",
    sweep_points_wins_match: "120 pontos ganham a partida",
    seats: "Lugares", seat_n: "Lugar {n}", you: "Você", partner: "Parceiro", opponent: "Adversário",
    kind_human: "Jogador (convidar)", kind_bot: "Robô", level: "Nível",
    open_table: "Mesa aberta: qualquer pessoa pode sentar num lugar livre",
    create_table: "Criar mesa", invitations: "Convites",
    invite_help: "Mande a cada amigo o convite do lugar dele. Quem tem o convite joga nesse lugar.",
    copy: "Copiar", copied: "Copiado!", take_my_seat: "Ir para a mesa",
    open_tables: "Mesas em jogo", no_tables: "Nenhuma mesa no momento.",
    watch: "Assistir", sit: "Sentar", free: "livre", match_n: "Partida {n}",
    us: "Nós", them: "Eles", team_a: "Dupla A", team_b: "Dupla B",
    your_turn: "Sua vez", turn_of: "Vez de {name}", trump: "Trunfo", dealer: "Dá as cartas",
    status_away: "Ausente", status_stand_in: "Ausente — o robô joga", status_waiting: "Aguardando",
    status_bot: "Robô", spectator: "Assistindo", deal_n: "Mão {n}", tricks: "Vazas",
    points: "Pontos", game_points: "Jogos", end_of_deal: "Fim da mão", tie: "Empate",
    next_deal: "Próxima mão", waiting_others: "Aguardando os outros…", match_over: "Fim da partida",
    we_won: "Ganhamos!", they_won: "Eles ganharam.", team_won: "{team} ganha a partida",
    rematch: "Revanche", hands: "Mãos", past_tricks: "Vazas jogadas", connecting: "Conectando…",
    reconnecting: "Conexão perdida — reconectando…", no_table: "Esta mesa não existe.",
    score_sheet: "Placar", target: "Meta: {n}", total: "Total",
    your_hand: "Sua mão", cloth: "Mesa", playing_for: "Joga pelo morto ({name})",
    err_must_follow: "Você tem que seguir o naipe.", err_must_trump: "Você tem que trunfar.",
    err_not_your_turn: "Não é sua vez.", err_bad_token: "Este convite não é válido.",
    err_not_in_hand: "Essa carta não está na sua mão.",
    finished_matches: "Partidas terminadas", no_matches: "Ainda não há partidas terminadas.",
    replay: "Rever", download: "Baixar registro", trick_n: "Vaza {n}", previous: "Anterior",
    next: "Próxima", start: "Início", winner: "Vencedor", players: "Jogadores", score: "Placar",
    date: "Data", deal_start: "Mão distribuída", won_trick: "{name} leva a vaza ({p} pontos)",
    back_to_list: "Todas as partidas", language: "Idioma", name_placeholder: "Ex.: Ana",
    last_trick: "Última vaza", card_points_now: "Pontos nesta mão",
    rank_A: "Ás", rank_7: "Sete", rank_K: "Rei", rank_J: "Valete", rank_Q: "Dama",
    rank_6: "Seis", rank_5: "Cinco", rank_4: "Quatro", rank_3: "Três", rank_2: "Dois",
    suit_S: "Espadas", suit_H: "Copas", suit_D: "Ouros", suit_C: "Paus", card_of: "{rank} de {suit}",
    face_K: "K", face_J: "J", face_Q: "Q", unplayable: "não pode jogar",
    rules_standard: "Regras de Portugal", rules_brazil: "Regras do Brasil",
    rules_italiana: "Sueca italiana", rules_pontos: "Sueca de pontos", hidden: "carta virada",
    cards_count: "{n} cartas",
    preset_double6: "Baralho duplo, 6 jogadores", preset_double8: "Baralho duplo, 8 jogadores",
    preset_italiana5: "Sueca italiana com 5 (leilão)",
    rules_double6: "Baralho duplo com 6", rules_double8: "Baralho duplo com 8",
    rules_italiana5: "Sueca italiana com 5", kind_dummy: "Morto (o parceiro joga)", dummy: "Morto",
    status_dummy: "morto", no_fixed_partner: "Parceiro secreto a cada mão",
    declarer_side: "Quem arrematou", defenders: "Defesa", declarer: "Arrematou", pass: "Passo",
    pts: "pts", auction: "Leilão", your_bid: "Seu lance", bid: "Dar lance",
    bid_range: "De {min} a {max} pontos, ou passe.", only_pass: "Ninguém pode subir mais: passe.",
    your_bid_turn: "Sua vez de dar lance", bid_turn_of: "{name} dando lance",
    your_call_turn: "Você arrematou: chame uma carta", call_turn_of: "{name} chama uma carta",
    call_card: "Chame uma carta", call_help: "O naipe dela é trunfo; quem a tem é seu parceiro secreto.",
    contract_line: "{name} joga para {n} pontos e chamou {card}",
    partner_secret: "parceiro secreto", partner_is: "parceiro: {name}", plays_alone: "joga sozinho",
    contract_made: "{name} fez os {n} pontos!", contract_failed: "{name} não fez os {n} pontos.",
    sides_points: "quem arrematou {a} · defesa {b}", player_won: "{name} ganha a partida",
    each_player: "cada jogador conta seus jogos",
    err_bad_bid: "Lance inválido: dê de {min} a {max}, ou passe.",
    err_bad_call: "Essa carta não pode ser chamada.", err_not_now: "Agora não.",
    err_auction: "Ainda não: o leilão não terminou.",
    opt_weak_hand_redeal: "Mão fraca pode pedir nova mão (Brasil)",
    redeal_keep: "Ficar com a mão", redeal_ask: "Pedir nova mão",
    redeal_prompt: "Sua mão tem {p} pontos (menos de {limit}): você pode pedir nova mão.",
    redeal_only_keep: "Sua mão tem {p} pontos: só com menos de {limit} você pode pedir nova mão.",
    redeal_prompt_dummy: "A mão do morto tem {p} pontos (menos de {limit}): você pode pedir nova mão por ele.",
    redeal_only_keep_dummy: "A mão do morto tem {p} pontos: só com menos de {limit} você pode pedir nova mão por ele.",
    your_redeal_turn: "Fica com a mão ou pede nova mão?", redeal_turn_of: "{name} decide se pede nova mão",
    redeal_asked: "{name} pediu nova mão: {dealer} dá de novo.",
    err_bad_redeal: "Só uma mão fraca pode pedir nova mão.",
    redeal_before: "antes desta, {name} pediu nova mão ({p} pontos)",
    opt_renuncia: "Renúncia: pode-se jogar uma carta que não segue o naipe, e a outra dupla pode acusá-la",
    opt_no_looking_back: "Não se pode ver a vaza que acabou de ser recolhida",
    open_hands: "Mãos abertas", open_none: "Nenhuma", open_all: "Todas (para aprender)",
    open_dealer_dummy: "À descoberta: quem dá e o parceiro",
    revoke_card: "não segue o naipe (renúncia)", denounce: "Renúncia!", game_one: "jogo",
    denounce_help: "Acusar renúncia: alguém da outra dupla não seguiu o naipe (ou não trunfou) podendo.",
    denounced_correct: "{name} acusou renúncia — com razão. A mão vai para {team}: {n}.",
    denounced_wrong: "{name} acusou renúncia — sem razão: {n} para {team}.",
    summary_revoke: "Renúncia provada: {n} para {team}.",
    summary_false: "Acusação de renúncia sem razão: {n} para {team}.",
    err_bad_denounce: "Agora você não pode acusar renúncia.",
  },
  en: {
    lang_name: "English",
    tagline: "Portugal's national card game — four players, two partnerships, 120 points.",
    lobby: "Lobby", history: "History", new_table: "New table", your_name: "Your name",
    rules: "Rules", preset_standard: "Portugal (standard)", preset_brazil: "Brazil",
    preset_italiana: "Italiana (must trump)", preset_pontos: "Points (to 500)",
    match_to: "Match to", games: "games", points_unit: "points",
    opt_must_trump: "Must trump when void in the suit led",
    opt_review_tricks: "Taken tricks may be reviewed (for learners)",
    opt_rolha: "Rolha", opt_tie_carry: "A tie carries over to the next deal",
    sweep: "Sweep (120 points)", sweep_points: "scores 4 games",
    sweep_bandeira: "Bandeira (every trick) wins the match",
    sweep_points_wins_match: "120 points win the match",
    seats: "Seats", seat_n: "Seat {n}", you: "You", partner: "Partner", opponent: "Opponent",
    kind_human: "Player (invite)", kind_bot: "Bot", level: "Level",
    open_table: "Open table: anyone may take a free seat",
    create_table: "Create table", invitations: "Invitations",
    invite_help: "Send each friend the link of their seat. Whoever holds a link plays that seat.",
    copy: "Copy", copied: "Copied!", take_my_seat: "Take my seat",
    open_tables: "Tables in play", no_tables: "No tables right now.",
    watch: "Watch", sit: "Sit", free: "free", match_n: "Match {n}",
    us: "Us", them: "Them", team_a: "Team A", team_b: "Team B",
    your_turn: "Your turn", turn_of: "{name} to play", trump: "Trump", dealer: "Dealer",
    status_away: "Away", status_stand_in: "Away — bot playing", status_waiting: "Waiting",
    status_bot: "Bot", spectator: "Watching", deal_n: "Deal {n}", tricks: "Tricks",
    points: "Points", game_points: "Games", end_of_deal: "End of the deal", tie: "Tie",
    next_deal: "Next deal", waiting_others: "Waiting for the others…", match_over: "Match over",
    we_won: "We won!", they_won: "They won.", team_won: "{team} win the match",
    rematch: "Rematch", hands: "Hands", past_tricks: "Tricks played", connecting: "Connecting…",
    reconnecting: "Connection lost — reconnecting…", no_table: "There is no such table.",
    score_sheet: "Score sheet", target: "Target: {n}", total: "Total",
    your_hand: "Your hand", cloth: "Table", playing_for: "Playing the dummy ({name})",
    err_must_follow: "You must follow suit.", err_must_trump: "You must trump.",
    err_not_your_turn: "It is not your turn.", err_bad_token: "This invitation is not valid.",
    err_not_in_hand: "That card is not in your hand.",
    finished_matches: "Finished matches", no_matches: "No finished matches yet.",
    replay: "Replay", download: "Download record", trick_n: "Trick {n}", previous: "Previous",
    next: "Next", start: "Start", winner: "Winner", players: "Players", score: "Score",
    date: "Date", deal_start: "Cards dealt", won_trick: "{name} takes the trick ({p} points)",
    back_to_list: "All matches", language: "Language", name_placeholder: "e.g. Ana",
    last_trick: "Last trick", card_points_now: "Points this deal",
    rank_A: "Ace", rank_7: "Seven", rank_K: "King", rank_J: "Jack", rank_Q: "Queen",
    rank_6: "Six", rank_5: "Five", rank_4: "Four", rank_3: "Three", rank_2: "Two",
    suit_S: "Spades", suit_H: "Hearts", suit_D: "Diamonds", suit_C: "Clubs",
    card_of: "{rank} of {suit}", face_K: "K", face_J: "J", face_Q: "Q", unplayable: "cannot be played",
    rules_standard: "Portuguese rules", rules_brazil: "Brazilian rules",
    rules_italiana: "Sueca italiana", rules_pontos: "Sueca de pontos", hidden: "face down",
    cards_count: "{n} cards",
    preset_double6: "Double deck, 6 players", preset_double8: "Double deck, 8 players",
    preset_italiana5: "Five-player Italiana (bidding)",
    rules_double6: "Double deck for 6", rules_double8: "Double deck for 8",
    rules_italiana5: "Five-player Italiana", kind_dummy: "Dummy (its partner plays it)", dummy: "Dummy",
    status_dummy: "dummy", no_fixed_partner: "A secret partner each deal",
    declarer_side: "Declarer", defenders: "Defenders", declarer: "Declarer", pass: "Pass",
    pts: "pts", auction: "Bidding", your_bid: "Your bid", bid: "Bid",
    bid_range: "{min} to {max} points, or pass.", only_pass: "Nobody can go higher: pass.",
    your_bid_turn: "Your turn to bid", bid_turn_of: "{name} to bid",
    your_call_turn: "You won the bidding: call a card", call_turn_of: "{name} calls a card",
    call_card: "Call a card", call_help: "Its suit is trump; whoever holds it is your secret partner.",
    contract_line: "{name} plays for {n} points and called {card}",
    partner_secret: "partner secret", partner_is: "partner: {name}", plays_alone: "plays alone",
    contract_made: "{name} made {n} points!", contract_failed: "{name} fell short of {n} points.",
    sides_points: "declarer {a} · defenders {b}", player_won: "{name} wins the match",
    each_player: "each player keeps his own score",
    err_bad_bid: "Not a bid you may make: bid {min} to {max}, or pass.",
    err_bad_call: "That card cannot be called.", err_not_now: "Not now.",
    err_auction: "Not yet: the bidding is not over.",
    opt_weak_hand_redeal: "A weak hand may ask for a new deal (Brazil)",
    redeal_keep: "Keep my hand", redeal_ask: "Ask for a new deal",
    redeal_prompt: "Your hand holds {p} points (fewer than {limit}): you may ask for a new deal.",
    redeal_only_keep: "Your hand holds {p} points: only a hand with fewer than {limit} may ask for a new deal.",
    redeal_prompt_dummy: "The dummy's hand holds {p} points (fewer than {limit}): you may ask for a new deal for it.",
    redeal_only_keep_dummy: "The dummy's hand holds {p} points: only a hand with fewer than {limit} may ask for a new deal.",
    your_redeal_turn: "Keep your hand or ask for a new deal?", redeal_turn_of: "{name} decides whether to ask for a new deal",
    redeal_asked: "{name} asked for a new deal: {dealer} deals again.",
    err_bad_redeal: "Only a weak hand may ask for a new deal.",
    redeal_before: "before this deal {name} asked for a new one ({p} points)",
    opt_renuncia: "Renúncia: a card that fails to follow may be played, and the other side may call it",
    opt_no_looking_back: "No looking back at the trick just taken",
    open_hands: "Open hands", open_none: "None", open_all: "All (for learners)",
    open_dealer_dummy: "À descoberta: the dealer and his partner",
    revoke_card: "does not follow (a revoke)", denounce: "Renúncia!", game_one: "game",
    denounce_help: "Call a revoke: a player of the other side failed to follow suit (or to trump) holding a card that could.",
    denounced_correct: "{name} called a revoke — rightly. The deal goes to {team}: {n}.",
    denounced_wrong: "{name} called a revoke — wrongly: {n} to {team}.",
    summary_revoke: "Revoke proven: {n} to {team}.",
    summary_false: "A revoke called wrongly: {n} to {team}.",
    err_bad_denounce: "You cannot call a revoke now.",
  },
};

const LANGS = ["pt-PT", "pt-BR", "en"];

function pickLanguage() {
  const saved = localStorage.getItem("sueca.lang");
  if (LANGS.includes(saved)) return saved;
  for (const wanted of navigator.languages || [navigator.language || ""]) {
    const lower = wanted.toLowerCase();
    if (lower === "pt-br") return "pt-BR";
    if (lower.startsWith("pt")) return "pt-PT";
    if (lower.startsWith("en")) return "en";
  }
  return "pt-PT";
}

let LANG = pickLanguage();

function t(key, params) {
  let text = (STRINGS[LANG] && STRINGS[LANG][key]) ?? STRINGS["pt-PT"][key] ?? key;
  for (const [name, value] of Object.entries(params || {})) {
    text = text.replaceAll(`{${name}}`, value);
  }
  return text;
}

// Fill every element marked data-i18n (text) or data-i18n-attr="attr:key,attr:key".
function applyStrings(root = document) {
  document.documentElement.lang = LANG;
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of el.dataset.i18nAttr.split(",")) {
      const [attr, key] = pair.split(":");
      el.setAttribute(attr, t(key));
    }
  }
}

// The language switch: a <select> in every page's header; onChange re-renders the page.
function mountLanguageSwitch(onChange) {
  const select = document.getElementById("lang");
  if (!select) return;
  select.innerHTML = LANGS.map(
    (code) => `<option value="${code}">${STRINGS[code].lang_name}</option>`).join("");
  select.value = LANG;
  select.addEventListener("change", () => {
    LANG = select.value;
    localStorage.setItem("sueca.lang", LANG);
    applyStrings();
    if (onChange) onChange();
  });
  applyStrings();
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => (
    { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}
