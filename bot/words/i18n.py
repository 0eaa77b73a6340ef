"""Every text players see, in German (the default) and English, in the games' own words.

``t(lang, key, **params)`` formats one text; a :class:`Text` param is itself translated, and
the user's own words repeated in a text (a typed verb, a name) are cut to ``ECHO_MAX``
characters, so every message fits the platforms' limits (Telegram 4096 per message and 200 per
button answer, Discord 2000). The German texts use the words players of these
games use (Kreide, Striche, Knoddel, Brot, Kartoffel, Stein, Trumpf, Stich ...); the English
ones translate them and keep the German name where players would (``rules/glossary.md``).
"""

from __future__ import annotations

from bot.table.refused import Text, clip

__all__ = ["LANGS", "DEFAULT", "t", "supported", "game_name", "hint", "hint_key", "option_label",
           "TEXTS"]

LANGS = ("de", "en")
DEFAULT = "de"
_COLUMN = {lang: i for i, lang in enumerate(LANGS)}
"""Each language's place in the pairs of :data:`TEXTS`."""
_ECHOED = frozenset({"verb", "word", "item", "text", "name", "chat"})
"""The params that carry what a user typed or is called: cut to ``ECHO_MAX``."""


TEXTS: dict[str, tuple[str, str]] = {
    # --- games
    "game.bauernstoss": ("Bauernstoß", "Bauernstoß"),
    "game.alter_schafkopf": ("Alter Schafkopf", "Alter Schafkopf"),
    "game.bauerchen": ("Bauerchen", "Bauerchen"),
    "game.bauer": ("Bauer", "Bauer"),
    "game.rams": ("Rams", "Rams"),
    "rules.bauernstoss": (
        "Bauernstoß: zwei gegen zwei, 32 Karten. Die vier Buben sind die höchsten Trümpfe. Wer die meisten "
        "Trümpfe meldet, tauft. Die Partei mit der Kreide braucht 42 Augen, die andere 79. Wer zuerst "
        "{target} Striche hat, gewinnt die Partie. Solo: »Gib mir eine« (8 Striche), »Leg dich« (12).",
        "Bauernstoß: two against two, 32 cards. The four jacks are the highest trumps. Whoever announces "
        "the most trumps names trump. The team with the chalk (Kreide) needs 42 eyes, the other 79. First to "
        "{target} Striche wins. Solos: small (\"Gib mir eine\", 8 Striche), grand (\"Leg dich\", 12)."),
    "rules.alter_schafkopf": (
        "Alter Schafkopf: wie Bauernstoß, bis {target} Striche. Gleichstand beim Melden geht an den höheren "
        "niedrigsten Trumpf. Wird Trumpf ausgespielt, muss man den höchsten Trumpf im Stich schlagen. Lechdich "
        "gewinnt oder verliert die Partie.",
        "Alter Schafkopf: like Bauernstoß, to {target} Striche. A tie when announcing goes to the higher "
        "lowest trump. On a trump lead you must beat the highest trump in the trick. A Lechdich wins or "
        "loses the whole partie."),
    "rules.bauerchen": (
        "Bauerchen: zwei gegen zwei, 20 Karten (A 10 K D B). Vorhand tauft nach zwei Karten, Buben sind die "
        "höchsten Trümpfe. Bedienen, sonst stechen, Trumpf muss überstochen werden. Spritzen verdoppelt, "
        "K+D melden bringt 20 oder 40. Vor dem ersten Ausspielen darf jeder Ledig spielen: allein, der Partner "
        "setzt aus; macht er alle Stiche, gewinnt seine Partei die Runde, sonst die andere. Eine Runde geht bis "
        "12, wer zwei Knoddel hat, verliert den Stein.",
        "Bauerchen: two against two, 20 cards (A 10 K Q J). The forehand names trump after two cards, "
        "jacks are the highest trumps. Follow suit, else trump, and overtrump a trump. Spritzen doubles, "
        "melding K+Q scores 20 or 40. Before the first lead anyone may play Ledig: alone, his partner sits "
        "out; taking every trick wins his team the round, losing one gives it to the opponents. A round goes "
        "to 12; two lost rounds (Knoddel) lose the Stein."),
    "rules.bauer": (
        "Bauer: zwei gegen zwei, 32 Karten. Vorhand tauft nach vier Karten. Der Dicke (Trumpfbube) und der "
        "Linke (der andere rote bzw. schwarze Bube: Herz ↔ Karo, Pik ↔ Kreuz) sind die höchsten Trümpfe. Nur "
        "bedienen, kein Stichzwang. Jede Partei zählt ihr Brot von 8 auf 0: wer das Spiel gewinnt, zählt 1 "
        "herunter; verliert die Trumpfpartei (auch bei Stichgleichheit), steigt ihr Brot um 1. Wer alle Stiche "
        "macht, zählt doppelt. Stoßen verdoppelt. Vor dem ersten Ausspielen darf jeder »Karten weg« sagen: "
        "allein spielen, er muss jeden Stich machen.",
        "Bauer: two against two, 32 cards. The forehand names trump after four cards. The right bower "
        "(der Dicke) and the left bower (der Linke: the jack of the other suit of the same colour, hearts ↔ "
        "diamonds, spades ↔ clubs) are the highest trumps. Follow suit, nothing more. Each team counts its "
        "Brot down from 8 to 0: the team that wins a deal counts 1 down; when the trump side loses (a tie in "
        "tricks too), its Brot climbs by 1. Taking every trick counts double. Stoß doubles. Before the first "
        "lead anyone may say Karten weg: he plays alone and must win every trick."),
    "rules.bauer_lead_trump": (
        "Wer tauft, spielt zum ersten Stich Trumpf aus, wenn er einen hat.",
        "Whoever names trump leads a trump to the first trick if he has one."),
    "rules.rams": (
        "Rams: jeder für sich, 3 bis 7 Spieler, 5 Karten. Der Kehrer bestimmt Trumpf, der Bälli (7♦) ist immer "
        "zweithöchster Trumpf. Mitspielen, passen oder den Blinden nehmen. Jeder Stich zählt einen Punkt, wer "
        "mitspielt und keinen Stich macht, bekommt eine Kartoffel. Wer zuerst {target} Stiche hat, ist raus.",
        "Rams: every player on their own, 3 to 7 players, 5 cards. The turned card (Kehrer) sets trump, the Bälli "
        "(7♦) is always the second trump. Play, pass or take the blind. Each trick is a point; playing without "
        "a trick earns a potato (Kartoffel). First to {target} tricks is out, as the winner."),
    # --- help
    "help": (
        "Stammtisch – Kartenspiele am Tisch\n"
        "neu SPIEL [Spieler] [option=wert]: Tisch eröffnen ({games})\n"
        "mitspielen · aufstehen · platz N · computer [leicht|stark] · computer weg N · los\n"
        "hand · tisch · zettel · regeln · abbrechen · revanche · sprache de|en\n"
        "Turnier: turnier neu SPIEL · turnier anmelden [PARTNER] · turnier los · turnier tabelle\n"
        "Im Spiel: spiel B♣ · trumpf herz · weg · mit · melde K♥ · spritzen · retour · zurück · stoß · ledig · "
        "karten weg · passen\n"
        "Was der Tisch sich merkt: statistik [name] · rangliste [spiel] · bild [spiel] · verlauf · abend · export · "
        "saison neu · statistik aus|an · vergessen",
        "Stammtisch – card games at the table\n"
        "new GAME [players] [option=value]: open a table ({games})\n"
        "join · leave · seat N · bot [easy|strong] · bot remove N · start\n"
        "hand · table · sheet · rules · abort · rematch · language de|en\n"
        "Tournament: tournament new GAME · tournament join [PARTNER] · tournament start · tournament standings\n"
        "In play: play JC · trump hearts · pass · mit · meld KH · spritz · re · back · knock · alone · cards away\n"
        "What the table remembers: stats [name] · ranking [game] · chart [game] · history · tonight · export · "
        "season new · stats off|on · forget"),
    # --- refusals
    "game_running": ("Das Spiel läuft schon.", "The game is already running."),
    "table_closed": ("Dieser Tisch ist beendet.", "This table has ended."),
    "already_seated": ("Du sitzt schon am Tisch.", "You already have a seat."),
    "table_full": ("Der Tisch ist voll.", "The table is full."),
    "seat_taken": ("Platz {seat} ist besetzt.", "Seat {seat} is taken."),
    "no_such_seat": ("Plätze gibt es von 1 bis {seats}.", "Seats go from 1 to {seats}."),
    "not_seated": ("Du sitzt nicht an diesem Tisch.", "You have no seat at this table."),
    "no_computer_there": ("Da sitzt kein Computer.", "There is no computer player in that seat."),
    "bad_level": ("Computer gibt es {levels}.", "Computer levels: {levels} (easy, normal, strong)."),
    "new_needs_game": ("Welches Spiel? neu SPIEL ({games})", "Which game? new GAME ({games})"),
    "unknown_game": ("»{word}« kenne ich nicht. Spiele: {games}", "I don't know \"{word}\". Games: {games}"),
    "bad_options_json": ("Die Optionen sind kein gültiges JSON-Objekt.", "The options are not a JSON object."),
    "bad_option_syntax": ("»{item}« verstehe ich nicht, bitte name=wert.", "\"{item}\" is not name=value."),
    "bad_option_value": ("Option {name}: erlaubt ist {allowed}.", "Option {name} takes {allowed}."),
    "unknown_option": ("»{name}« ist keine Option. Optionen: {names}", "\"{name}\" is not an option. Options: {names}"),
    "opt.named": ("{label} ({name})", "{label} ({name})"),
    "opt.partners": ("Partner", "how partners are found"),
    "opt.grand_solo_needs_jc": ("»Leg dich« nur mit Kreuz-Bube", "grand solo needs the J♣"),
    "opt.target": ("Ziel", "target score"),
    "opt.trump_after_cards": ("Trumpf nach Karten", "trump after cards"),
    "opt.die_letzte": ("Die Letzte", "Die Letzte"),
    "opt.overtrump_on_trump_lead_only": ("Überstechen nur bei Trumpf", "overtrump only on a trump lead"),
    "opt.forty_at_ten": ("40er-Regel", "40 at ten"),
    "opt.weiterschreiben": ("Weiterschreiben", "carry points over"),
    "opt.ledig_in_decider": ("Ledig im Gehampelten", "Ledig in the decider"),
    "opt.target_steine": ("Steine zum Sieg", "Steine to win"),
    "opt.lead_trump_first": ("Trumpf zuerst", "trump lead first"),
    "opt.short_deck": ("Kurzes Blatt", "short deck"),
    "opt.target_brote": ("Brote zum Sieg", "Brote to win"),
    "opt.sixes": ("Sechser", "with the sixes"),
    "opt.unit": ("Einsatz je Platz", "stake per place"),
    "opt.kartoffel_fee": ("Kartoffel-Gebühr", "Kartoffel fee"),
    "opt.reminder_after": ("Erinnerung nach", "reminder after"),
    "opt.autoplay_after": ("Computer nach", "computer after"),
    "opt.declare_wait": ("Bedenkzeit vor dem Ausspielen", "wait before the first lead"),
    "opt.level": ("Computer-Stärke", "computer level"),
    "opt.pace": ("Tempo", "game pace"),
    "opt.currency": ("Währung", "settlement currency"),
    "allowed.bool": ("an oder aus", "on or off"),
    "allowed.choice": ("eins von: {choices}", "one of: {choices}"),
    "allowed.whole": ("eine ganze Zahl von {lo} bis {hi}", "a whole number from {lo} to {hi}"),
    "allowed.number": ("eine Zahl von {lo} bis {hi}", "a number from {lo} to {hi}"),
    "allowed.or_default": ("{allowed} oder »standard«", "{allowed} or \"default\""),
    "allowed.currency": ("ein kurzes Wort ohne Leerzeichen, höchstens {max} Zeichen, wie Fr., CHF oder €",
                         "a short word without spaces, at most {max} characters, such as Fr., CHF or €"),
    "allowed.duration": ("eine Dauer von {lo} bis {hi} wie 90s, 15m, 12h, 2d, oder off",
                         "a duration from {lo} to {hi} such as 90s, 15m, 12h, 2d, or off"),
    "timers_only_longer": ("Während des Spiels dürfen die Zeiten nur länger werden. "
                           "Kürzere stellt man vor dem Start ein.",
                           "During play the timers may only get longer. Shorter ones are set before the start."),
    "bad_players_exact": ("{game} spielt man zu {count}.", "{game} is played by {count} players."),
    "count.4": ("viert", "four"),
    "which_table": ("An welchem Tisch? Du spielst an: {tables}. Tippe deinen Zug dort.",
                    "At which table? You play at: {tables}. Type your move there."),
    "rs.default_target": ("21 (ab 5 Spielern 15)", "21 (15 from 5 players)"),
    "bad_players": ("{game} spielt man zu {lo} bis {hi}.", "{game} is played by {lo} to {hi} players."),
    "which_card": ("Welche Karte? Zum Beispiel: spiel B♣", "Which card? For example: play J♣"),
    "which_suit": ("Welche Farbe? ♣ ♠ ♥ ♦", "Which suit? ♣ ♠ ♥ ♦"),
    "mit_needs_count": ("Mit sagt, wer so viele hat wie die höchste Meldung ({count}); die hast du in keiner Farbe.",
                        "Mit (me too) needs as many as the best announcement ({count}); no suit of yours has that."),
    "which_solo": ("Welches Solo? klein oder groß", "Which solo? small or grand"),
    "not_a_card": ("»{text}« ist keine Karte.", "\"{text}\" is not a card."),
    "unknown_command": ("»{verb}« verstehe ich nicht. »hilfe« zeigt, was geht.",
                        "I don't understand \"{verb}\". \"help\" lists the commands."),
    "no_table": ("Hier ist kein Tisch offen. Neuer Tisch: neu SPIEL", "No table is open here. Open one: new GAME"),
    "too_many_tables": ("Du sitzt schon an {most} offenen Tischen. Spiel erst einen zu Ende oder steh auf.",
                        "You already sit at {most} open tables. Finish one or leave one first."),
    "too_many_lobbies": ("Hier warten schon {most} Tische auf Mitspieler. Setzt euch dazu oder brecht einen ab.",
                         "{most} tables are already waiting for players here. Join one or abort one first."),
    "table_exists": ("Hier läuft schon ein Tisch. »abbrechen« beendet ihn.",
                     "A table is already open here. \"abort\" ends it."),
    "unknown_table": ("Diesen Tisch gibt es nicht mehr.", "That table does not exist any more."),
    "forged": ("Dieser Knopf gilt nicht.", "That button is not valid."),
    "not_understood": ("Das verstehe ich nicht. »hilfe« zeigt, was geht.",
                       "I don't understand that. \"help\" lists the commands."),
    "failed": ("Da ist etwas schiefgegangen. Bitte nochmal versuchen.", "Something went wrong. Please try again."),
    "use_hand_buttons": ("Das geht so nicht. Spiel deine Karten mit den Knöpfen in unserem privaten Chat.",
                         "That doesn't work. Play your cards with the buttons in our private chat."),
    "no_hands": ("Du sitzt an keinem laufenden Tisch.", "You have no seat at a running table."),
    "already_played": ("Schon gespielt.", "Already played."),
    "busy": ("Gerade ist viel los, bitte nochmal.", "Busy right now, please try again."),
    "technical_problem": ("Ein technisches Problem, bitte versuch es gleich nochmal.",
                          "A technical problem, please try again in a moment."),
    "slow_down": ("{name}, nicht so schnell: eine Minute lang antworte ich dir hier nicht mehr.",
                  "{name}, not so fast: I won't answer you here for a minute."),
    "not_your_turn": ("Du bist nicht dran, {name} ist am Zug.", "It's not your turn: {name} is to play."),
    "declare_wait": ("Einen Moment: vor dem ersten Ausspielen ist noch {what} möglich für {names}.",
                     "Just a moment: {what} is still open before the first lead for {names}."),
    "declare_closed": ("»Weiter« gilt nur vor dem ersten Ausspielen, solange du noch allein spielen kannst.",
                       "\"Go on\" only counts before the first lead, while you may still play alone."),
    "declare_open": ("⏳ Vor dem ersten Ausspielen ist noch {what} möglich für {names}.",
                     "⏳ {what} is still open before the first lead for {names}."),
    "declare_now": ("Vor dem ersten Ausspielen: {what} oder »Weiter«? Die anderen warten auf dich.",
                    "Before the first lead: {what}, or \"Go on\"? The others are waiting for you."),
    "why.alone_before": ("{what} sagst du an, wenn Trumpf genannt ist und alle Karten verteilt sind.",
                         "{what} is declared once trump is named and all cards are dealt."),
    "why.alone_after": ("{what} geht nur vor dem ersten Ausspielen, und es ist schon ausgespielt.",
                        "{what} is only possible before the first lead, and a card is led already."),
    "why.alone_none": ("Allein spielen gibt es bei {game} nicht.", "{game} has no playing alone."),
    "why.alone_taken": ("{name} spielt schon allein.", "{name} plays alone already."),
    "why.alone_decider": ("{what} gibt es an diesem Tisch im Gehampelter nicht.",
                          "This table plays no {what} in the deciding round (Gehampelter)."),
    "why.double_before": ("{what} geht erst, wenn gespielt wird.", "{what} is only possible during the play."),
    "why.double_other": ("Mit {what} ist jetzt die andere Partei dran.", "It's the other team's turn for {what} now."),
    "why.sitting_out": ("Du sitzt dieses Spiel aus.", "You sit this deal out."),
    "why.spritz_ledig": ("Bei Ledig wird nicht gespritzt.", "There is no Spritzen in a Ledig deal."),
    "why.spritz_decided": ("Das Spiel ist schon entschieden: Spritzen geht nicht mehr.",
                           "The deal is decided already: no more Spritzen."),
    "why.stoss_done": ("Es ist schon zurückgestoßen, weiter geht es nicht.", "Stoß back is the last call."),
    "why.choices": ("Das steht jetzt nicht zur Wahl. Du kannst: {choices}.",
                    "That is not a choice now. You may: {choices}."),
    "why.a_card": ("eine Karte spielen", "play a card"),
    "deal_over": ("Das Spiel ist schon vorbei.", "The deal is already over."),
    "not_started": ("Das Spiel hat noch nicht angefangen.", "The game has not started yet."),
    "not_finished": ("Revanche gibt es nach der Partie.", "A rematch comes after the match."),
    "only_opener": ("Nur wer den Tisch eröffnet hat ({name}), darf das.",
                    "Only whoever opened the table ({name}) may do that."),
    "chat_settings_players": ("Während des Spiels stellen nur die Mitspieler (oder ein Admin des Chats) "
                              "Sprache, Ruhezeit und Zeitzone um.",
                              "During play only the players (or an admin of the chat) change the language, "
                              "quiet hours and time zone."),
    "lang_unknown": ("Sprachen: de (Deutsch), en (English)", "Languages: de (Deutsch), en (English)"),
    "option_unknown": ("Optionen: {names}", "Options: {names}"),
    # --- restriction hints (engine hint keys)
    "hint.must_follow": ("Farbe bekennen: du musst bedienen.", "You must follow suit."),
    "hint.must_trump": ("Du musst stechen.", "You must trump."),
    "hint.must_overtrump": ("Du musst überstechen.", "You must overtrump."),
    "hint.must_lead_trump": ("Du musst Trumpf ausspielen.", "You must lead a trump."),
    "hint.trump_ace_first": ("Trumpfass zuerst.", "Lead the trump ace first."),
    "hint.jack_rule": ("Bube muss überstochen werden.", "You must beat the jack with a higher jack."),
    "hint.not_in_hand": ("Die Karte hast du nicht.", "You don't hold that card."),
    "hint.not_now": ("Das darfst du gerade nicht.", "You may not do that now."),
    "hint.other": ("Diese Karte darfst du jetzt nicht spielen.", "You may not play that card now."),
    "hint.meld_lead": ("Melden geht nur, wenn du ausspielst.", "You can only meld when you lead."),
    "hint.must_announce": ("Mit einem Buben musst du melden, solange keiner gemeldet hat.",
                           "With a jack you must announce while nobody has."),
    "hint.count_too_low": ("Es ist schon mehr gemeldet.", "A higher count is announced already."),
    "hint.no_mit": ("Mit geht nur mit der Acht oder höher als kleinstem Trumpf.",
                    "\"Mit\" needs an eight or higher as your lowest trump."),
    # --- notices and toasts
    "aborted": ("Tisch abgebrochen.", "Table aborted."),
    "abort_vote": ("{name} will abbrechen ({votes} von {need} Stimmen).", "{name} wants to abort ({votes} of {need} votes)."),
    "lang_set": ("Sprache: Deutsch", "Language: English"),
    "joined_from_link": ("Du sitzt am Tisch in »{chat}«. Deine Karten kommen hier.",
                         "You have a seat at the table in \"{chat}\". Your cards come here."),
    "join_link": ("Damit ich dir deine Karten schicken kann: hier tippen",
                  "So I can send you your cards: tap here"),
    "reminder": ("⏰ {name}, du bist dran ({game}).", "⏰ {name}, it's your turn ({game})."),
    "autoplayed": ("⏱ {name} war zu lange weg. Der Computer übernimmt den Platz und {did}. "
                   "Ein Tipp auf »Meine Karten«, und {name} spielt wieder selbst.",
                   "⏱ {name} was away too long. The computer takes over the seat and {did}. "
                   "One tap on \"My hand\" and {name} plays again."),
    "did.play": ("spielt {action}", "plays {action}"),
    "did.name": ("tauft {action}", "names {action} trump"),
    "did.choose": ("wählt: {action}", "chooses: {action}"),
    "closed_no_humans": ("{name} ist aufgestanden. Ohne Menschen am Tisch ist der Tisch geschlossen.",
                         "{name} left. With no people at the table, the table is closed."),
    "left_playing": ("{name} ist aufgestanden, ein Computer übernimmt den Platz.",
                     "{name} left; a computer player takes the seat."),
    # --- buttons
    "btn.join": ("Mitspielen", "Join"),
    "btn.leave": ("Aufstehen", "Leave"),
    "btn.bot": ("+ Computer", "+ Computer"),
    "btn.bot_remove": ("− Computer", "− Computer"),
    "btn.bot_level": ("+ Computer {level}", "+ Computer {level}"),
    "btn.start": ("Los geht's", "Start"),
    "btn.rules": ("Regeln", "Rules"),
    "btn.options": ("Optionen", "Options"),
    "btn.done": ("Fertig", "Done"),
    "btn.hand": ("Meine Karten", "My hand"),
    "btn.rematch": ("Revanche", "Rematch"),
    "btn.new": ("Neuer Tisch", "New table"),
    # --- the group's memory: the buttons of a finished table
    "btn.ranking": ("🏆 Rangliste", "🏆 Ranking"),
    "btn.tonight": ("🌙 Der Abend", "🌙 Tonight"),
    "btn.stats": ("📊 Meine Statistik", "📊 My stats"),
    # --- actions
    "act.pass": ("weg", "pass"),
    "act.pass_rams": ("Passen", "Pass"),
    "act.announce": ("{count} melden ({suit})", "announce {count} ({suit})"),
    "act.mit": ("mit {count} ({suit})", "me too: mit {count} ({suit})"),
    "act.let_partner_name": ("Partner tauft", "Partner names trump"),
    "act.solo_small": ("Gib mir eine", "Small solo"),
    "act.solo_grand": ("Leg dich", "Grand solo"),
    "act.lechdich": ("Lechdich", "Lechdich"),
    "act.give": ("{card} geben", "give {card}"),
    "act.die_letzte": ("Die Letzte", "The last one"),
    "act.meld": ("{card} +{meld}", "{card} +{meld}"),
    "act.spritz": ("Spritzen", "Spritzen (double)"),
    "act.spritz_back": ("Retour ×{times}", "Re ×{times}"),
    "act.stoss": ("Stoßen", "Stoß (double)"),
    "act.stoss_back": ("Zurückstoßen", "Stoß back"),
    "act.ledig": ("Ledig", "Ledig (alone)"),
    "act.karten_weg": ("Karten weg", "Karten weg (alone)"),
    "act.let_pass": ("Weiter", "Go on"),
    "act.take_blind": ("Blinden nehmen", "Take the blind"),
    "act.play_hand": ("Mitspielen", "Play"),
    "act.exchange": ("{card} weg, rauben", "rob: give {card}"),
    "act.hidden": ("eine verdeckte Entscheidung", "a hidden choice"),
    # --- the table message
    "lobby_title": ("🃏 {game} – Tisch von {name}", "🃏 {game} – {name}'s table"),
    "play_title": ("🃏 {game}", "🃏 {game}"),
    "house_rules": ("Regeln: {rules}", "Rules: {rules}"),
    "standard": ("Standard", "standard"),
    "on": ("an", "on"),
    "off": ("aus", "off"),
    "empty_seat": ("–", "–"),
    "computer": ("Computer {n}", "Computer {n}"),
    "computer_level": ("Computer {n} ({level})", "Computer {n} ({level})"),
    "level.leicht": ("leicht", "easy"),
    "level.normal": ("normal", "normal"),
    "level.stark": ("stark", "strong"),
    "partners": ("Partner sitzen sich gegenüber: {a} gegen {b}", "Partners sit opposite: {a} against {b}"),
    "need_players": ("Freie Plätze bekommen beim Start einen Computer.", "Free seats get a computer player at the start."),
    "options_help": ("Tippen schaltet um; Zahlen: »option name wert«", "Tap to switch; numbers: \"option name value\""),
    "turn": ("➡️ {name} ist dran", "➡️ {name}'s turn"),
    "since": (" (seit {ago})", " (for {ago})"),
    "trick": ("Stich {no}: {cards}", "Trick {no}: {cards}"),
    "trump": ("Trumpf {suit}", "Trump {suit}"),
    "trump_by": ("Trumpf {suit} (von {name})", "Trump {suit} (by {name})"),
    "no_trump_yet": ("Trumpf noch offen", "Trump not named yet"),
    "minutes": ("{n} Min.", "{n} min"),
    "hours": ("{n} Std.", "{n} h"),
    "days": ("{n} Tg.", "{n} d"),
    "thrown_in": ("eingeworfen, neu geben", "thrown in, new deal"),
    "deal_no": ("Spiel {no}", "Deal {no}"),
    "aborted_title": ("🃏 {game} – abgebrochen", "🃏 {game} – aborted"),
    # Bauernstoß / Alter Schafkopf
    "bs.score": ("Striche {a} : {b} (bis {target}) · Kreide: {chalk}", "Striche {a} : {b} (to {target}) · chalk: {chalk}"),
    "bs.nobody": ("niemand", "nobody"),
    "bs.announced": ("Gemeldet: {items}", "Announced: {items}"),
    "bs.count": ("{name} {count}", "{name} {count}"),
    "bs.passed": ("{name} weg", "{name} pass"),
    "bs.solo": ("{name} spielt {solo}", "{name} plays {solo}"),
    "bs.result": ("{team} {eyes} : {other} Augen, +{striche} {unit}", "{team} {eyes} : {other} eyes, +{striche} {unit}"),
    "bs.strich": ("Strich", "Strich"),
    "bs.striche": ("Striche", "Striche"),
    # Bauerchen
    "bc.score": ("Runde {a} : {b} (bis {end}) · Knoddel {ka} : {kb} · Steine {sa} : {sb}",
                 "Round {a} : {b} (to {end}) · Knoddel {ka} : {kb} · Steine {sa} : {sb}"),
    "bc.home": ("zuhause: {team}", "home: {team}"),
    "bc.spritz": ("gespritzt ×{times}", "doubled ×{times} (Spritzen)"),
    "bc.ledig": ("{name} spielt ledig", "{name} plays alone (Ledig)"),
    "bc.letzte": ("die Letzte: {card}", "the last one: {card}"),
    "bc.melds": ("gemeldet {a} : {b}", "melded {a} : {b}"),
    "bc.result": ("{team} gewinnen {eyes} : {other}, {points} {unit}", "{team} win {eyes} : {other}, {points} {unit}"),
    "bc.point": ("Punkt", "point"),
    "bc.points": ("Punkte", "points"),
    "bc.round_won": ("{team} gewinnen die Runde", "{team} win the round"),
    "bc.ledig_won": ("{team} gewinnen ledig die Runde", "{team} win the round alone (Ledig)"),
    # Bauer
    "ba.score": ("Brot {a} : {b} · Brote {ba} : {bb} (bis {target})", "Brot {a} : {b} · Brote {ba} : {bb} (to {target})"),
    "ba.tricks": ("Stiche {a} : {b}", "tricks {a} : {b}"),
    "ba.stoss": ("gestoßen: {names}", "Stoß: {names}"),
    "ba.alone": ("{name} spielt Karten weg", "{name} plays alone (Karten weg)"),
    "ba.result": ("{team} gewinnen {tricks} : {other} Stiche", "{team} win {tricks} : {other} tricks"),
    "ba.brot": ("{team} gewinnen ein Brot", "{team} win a Brot"),
    # Rams
    "rs.score": ("Stiche: {items} (bis {target})", "Tricks: {items} (to {target})"),
    "rs.potatoes": ("Kartoffeln: {items}", "Kartoffeln: {items}"),
    "rs.kehrer": ("Kehrer {cards}", "turned: {cards}"),
    "rs.kehrer_baelli": ("Kehrer {kehrer}, Bälli {baelli}", "turned: {kehrer}, Bälli {baelli}"),
    "rs.passed": ("passt: {names}", "passed: {names}"),
    "rs.blind": ("{name} hat den Blinden", "{name} took the blind"),
    "rs.result": ("Stiche: {items}", "Tricks: {items}"),
    "rs.kartoffel": ("Kartoffel für {names}", "Kartoffel for {names}"),
    "rs.out": ("{name} hat {tricks} Stiche, das Ziel {target} ist erreicht: {name} ist raus, Platz {place}",
               "{name} has {tricks} tricks, the target of {target} is reached: {name} is out, in place {place}"),
    # the story of a deal (bot.words.story): who did what, and why a deal ended as it did
    "st.announced": ("{name} meldet {count}", "{name} announces {count}"),
    "st.mit": ("{name} sagt mit ({count})", "{name} says me too (mit, {count})"),
    "st.passed": ("{name} sagt weg", "{name} passes"),
    "st.named": ("{name} tauft {suit}", "{name} names {suit} trump"),
    "st.solo": ("{name} spielt {solo}", "{name} plays {solo}"),
    "st.solo_name": ("»{solo}«", "\"{solo}\""),
    "st.gave": ("{name} gibt eine Karte ab", "{name} passes a card"),
    "st.gave_jack": ("{name} gibt {card} zurück", "{name} gives back {card}"),
    "st.spritz": ("{name} spritzt (×{times})", "{name} doubles (Spritzen, ×{times})"),
    "st.retour": ("{name} sagt Retour (×{times})", "{name} doubles back (Re, ×{times})"),
    "st.stoss": ("{name} stößt (×{times})", "{name} knocks (Stoß, ×{times})"),
    "st.stoss_back": ("{name} stößt zurück (×{times})", "{name} knocks back (×{times})"),
    "st.meld": ("{name} meldet {meld} ({cards})", "{name} melds {meld} ({cards})"),
    "st.letzte": ("{name} sagt »die Letzte«: {card}", "{name} says \"the last one\": {card}"),
    "st.play": ("{name} spielt mit", "{name} plays"),
    "st.pass": ("{name} passt", "{name} passes"),
    "st.blind": ("{name} nimmt den Blinden", "{name} takes the blind"),
    "st.robbed": ("{name} raubt {card}", "{name} robs {card}"),
    "st.ledig": ("{name} spielt ledig", "{name} plays alone (Ledig)"),
    "st.karten_weg": ("{name} sagt Karten weg und spielt allein", "{name} plays alone (Karten weg)"),
    "st.let_partner_name": ("{name} lässt den Partner taufen", "{name} lets the partner name trump"),
    "st.trick": ("Stich: {cards} – {took}", "Trick: {cards} – {took}"),
    "st.last": ("Letzter Stich: {cards} – {took}", "Last trick: {cards} – {took}"),
    "st.took": ("{name} macht den Stich", "{name} takes it"),
    "st.eyes": (" ({eyes} Augen)", " ({eyes} eyes)"),
    "st.passed_list": ("gepasst: {names}", "passed: {names}"),
    "st.deal_title": ("🃏 {game} · Spiel {no} ist aus", "🃏 {game} · deal {no} is over"),
    "st.last_deal": ("Letztes Spiel:", "Last deal:"),
    "st.eyes_word": ("Augen: {teams}", "Eyes: {teams}"),
    "st.last_ten": (" (mit 10 für den letzten Stich an {team})", " (with 10 for the last trick to {team})"),
    "st.tie_away": ("Gleichstand: {team} sind auswärts und gewinnen, die Trumpfpartei braucht 66",
                    "A tie: {team} are away and win; the trump side needs 66"),
    "st.tricks_word": ("Stiche: {teams}", "Tricks: {teams}"),
    "st.strich": ("{n} Strich", "{n} Strich"),
    "st.striche": ("{n} Striche", "{n} Striche"),
    "st.plus_strich": ("+{n} Strich", "+{n} Strich"),
    "st.plus_striche": ("+{n} Striche", "+{n} Striche"),
    "st.schwarz": ("schwarz", "schwarz: every trick"),
    "st.schneider": ("Schneider", "Schneider"),
    "st.chalk_enough": ("mit der Kreide reichen 42", "42 are enough with the chalk"),
    "st.keep_chalk": ("{team} behalten die Kreide", "{team} keep the chalk"),
    "st.take_chalk": ("{team} holen die Kreide", "{team} take the chalk"),
    "st.jack_strich": ("+1 Strich für {team} (Kreuz-Bube im ersten Spiel)",
                       "+1 Strich for {team} (the Kreuz-Bube in the first deal)"),
    "st.solo_won": ("{name} gewinnt {solo}: {gain} für {team}", "{name} wins {solo}: {gain} for {team}"),
    "st.solo_lost": ("{name} verliert {solo}: {gain} für {team}", "{name} loses {solo}: {gain} for {team}"),
    "st.lechdich_won": ("{name} gewinnt den Lechdich: die Partie für {team}",
                        "{name} wins the Lechdich: the partie goes to {team}"),
    "st.lechdich_lost": ("{name} verliert den Lechdich: die Partie für {team}",
                         "{name} loses the Lechdich: the partie goes to {team}"),
    "st.ledig_won": ("{name} gewinnt ledig", "{name} wins alone (Ledig)"),
    "st.ledig_lost": ("{name} verliert ledig", "{name} loses alone (Ledig)"),
    "st.nackig": ("nackig {n}", "nackig (no trick) {n}"),
    "st.bc_schneider": ("Schneider {n}", "Schneider {n}"),
    "st.schneider_frei": ("Schneider frei {n}", "Schneider frei {n}"),
    "st.away": ("1 auswärts", "1 away"),
    "st.spritz_times": ("× {times} gespritzt", "× {times} Spritzen"),
    "st.bc_won": ("{team} gewinnen: {calc} = {points}", "{team} win: {calc} = {points}"),
    "st.bc_won_plain": ("{team} gewinnen {points} ({why})", "{team} win {points} ({why})"),
    "st.point": ("{n} Punkt", "{n} point"),
    "st.points": ("{n} Punkte", "{n} points"),
    "st.melded": ("Punkte aus Meldungen: {score}", "points from melds: {score}"),
    "st.round_won": ("{team} gewinnen die Runde ({score}), Knoddel für {loser}",
                     "{team} win the round ({score}), a Knoddel for {loser}"),
    "st.stossed": ("gestoßen ×{times}", "Stoß ×{times}"),
    "st.all_tricks": ("alle Stiche ×2", "every trick ×2"),
    "st.alone_won": ("{name} gewinnt Karten weg: {brote} für {team}", "{name} wins alone: {brote} for {team}"),
    "st.alone_lost": ("{name} verliert Karten weg: {brote} für {team}", "{name} loses alone: {brote} for {team}"),
    "st.brot_n": ("{n} Brot", "{n} Brot"),
    "st.brote_n": ("{n} Brote", "{n} Brote"),
    "st.ba_won": ("{team} gewinnen mit ihrem Trumpf", "{team} win with their trump"),
    "st.ba_against": ("{team} gewinnen gegen den Trumpf", "{team} win against trump"),
    "st.brot_moves": ("Brot {moves}", "Brot {moves}"),
    "st.brot_move": ("{team} {change} → {to}", "{team} {change} → {to}"),
    "st.ba_back": ("{team} haben getauft und verloren: ihr Brot steigt um {n}",
                   "{team} named trump and lost: their Brot climbs by {n}"),
    "st.ba_tie": ("Bei Stichgleichheit verliert die Trumpfpartei: das Brot von {team} steigt um {n}",
                  "A tie in tricks loses for the trump side: the Brot of {team} climbs by {n}"),
    "st.brot_won": ("{team} gewinnen ein Brot! Neues Brot: 8 : 8", "{team} win a Brot! New Brot: 8 : 8"),
    # the score sheet
    "sheet.title": ("📋 Zettel · {game}", "📋 Score sheet · {game}"),
    "sheet.empty": ("Noch kein Spiel fertig.", "No deal finished yet."),
    "sheet.teams": ("{a} : {b}", "{a} : {b}"),
    "sheet.chalk": ("Kreide: {team}", "chalk: {team}"),
    "sheet.jack": ("Kreuz-Bube", "Kreuz-Bube"),
    "sheet.melds": ("gemeldet", "melds"),
    "sheet.dropped": ("verfällt", "dropped"),
    "sheet.round": ("Runde für {team}", "round to {team}"),
    "sheet.alone": ("{what}: {name}", "{what}: {name}"),
    "sheet.brot": ("{brote} für {team} (Brote {a} : {b})", "{brote} to {team} (Brote {a} : {b})"),
    "sheet.new": ("neu {a} : {b}", "new {a} : {b}"),
    "sheet.out": ("Platz {place}", "place {place}"),
    # the end
    "winner": ("🏆 {team} gewinnen {what}", "🏆 {team} win {what}"),
    "winner_one": ("🏆 {name} gewinnt", "🏆 {name} wins"),
    "what.bs": ("die Partie · Striche: {score}", "the partie · Striche: {score}"),
    "what.bc": ("den Stein · Steine: {score}", "the Stein · Steine: {score}"),
    "what.ba": ("die Partie · Brote: {score}", "the match · Brote: {score}"),
    "rounds": ("Runden: {items}", "Rounds: {items}"),
    "decider": ("Gehampelter", "decider"),
    "ledig": ("ledig", "Ledig"),
    "best_trick": ("Bester Stich: {name}, {eyes} Augen", "Best trick: {name}, {eyes} eyes"),
    "deals_played": ("{n} Spiele", "{n} deals"),
    "deals_played_one": ("1 Spiel", "1 deal"),
    "ranking": ("Rangliste: {items}", "Ranking: {items}"),
    "settlement": ("Abrechnung, alles in die Kasse:", "Settlement, everything into the kitty:"),
    "pays": ("{name} zahlt {amount} ({why})", "{name} pays {amount} ({why})"),
    "pays_nothing": ("{name} zahlt nichts (Platz 1)", "{name} pays nothing (place 1)"),
    "pay.place": ("Platz {place}: {amount}", "place {place}: {amount}"),
    "pay.potato": ("{n} Kartoffel: {amount}", "{n} Kartoffel: {amount}"),
    "pay.potatoes": ("{n} Kartoffeln: {amount}", "{n} Kartoffeln: {amount}"),
    "pay.total": ("Zusammen in der Kasse: {amount}", "In the kitty: {amount}"),
    # the hand
    "hand_title": ("{game} bei »{chat}«", "{game} at \"{chat}\""),
    "hand_title_private": ("{game}", "{game}"),
    "alone_against": ("Du spielst allein gegen {others}.", "You play alone against {others}."),
    "and": (" und ", " and "),
    "with_partner_one": ("Du spielst mit {partner} gegen {a}.", "You play with {partner} against {a}."),
    "with_partner": ("Du spielst mit {partner} gegen {a} und {b}.", "You play with {partner} against {a} and {b}."),
    "your_turn": ("Du bist dran.", "Your turn."),
    "in_trick": ("Im Stich: {cards}", "In the trick: {cards}"),
    "play_when_your_turn": ("Spiel eine Karte, wenn du dran bist. Den Stich und wer dran ist, zeigt der Tisch.",
                            "Play a card when it's your turn. The table shows the trick and whose turn it is."),
    "bid_when_your_turn": ("Melde, wenn du dran bist. Was gemeldet ist und wer dran ist, zeigt der Tisch.",
                           "Announce when it's your turn. The table shows the bids and whose turn it is."),
    "play_not_yet": ("Erst wird noch angesagt. Deine Karte spielst du danach, wenn du dran bist.",
                     "The bidding is not over yet. Play your card after it, when it's your turn."),
    "committed": ("Deine Ansage: {suit}", "You announced: {suit}"),
    "your_cards": ("Deine Karten: {cards}", "Your cards: {cards}"),
    "no_cards": ("Keine Karten.", "No cards."),
    "sitting_out": ("Du setzt dieses Spiel aus.", "You sit out this deal."),
    "match_over": ("Die Partie ist aus.", "The match is over."),
    "table_aborted": ("Der Tisch ist abgebrochen.", "The table was aborted."),
    # --- the group's memory (issue 21): statistics, rankings, history, the evening (bot/words/stats.py, evening.py)
    "mem.figure.solo": ("Soli {n}", "solos {n}"),
    "mem.figure.solo_lechdich": ("Lechdich {n}", "Lechdich {n}"),
    "mem.figure.won_of": ("{n} (davon {won} gewonnen)", "{n} ({won} won)"),
    "mem.figure.kreide": ("Kreide {n}", "Kreide {n}"),
    "mem.figure.striche": ("Striche {n}", "Striche {n}"),
    "mem.figure.spritzen": ("Spritzen {n}", "Spritzen {n}"),
    "mem.figure.ledig": ("Ledig {n}", "Ledig {n}"),
    "mem.figure.knoddel": ("Knoddel {n}", "Knoddel {n}"),
    "mem.figure.steine": ("Steine {n}", "Steine {n}"),
    "mem.figure.stoss": ("Stoß {n}", "Stoß {n}"),
    "mem.figure.karten_weg": ("Karten weg {n}", "Karten weg {n}"),
    "mem.figure.brote": ("Brote {n}", "Brote {n}"),
    "mem.figure.kartoffeln": ("Kartoffeln {n}", "Kartoffeln {n}"),
    "mem.figure.tricks": ("Stiche {n}", "tricks {n}"),
    "mem.figure.place": ("im Schnitt Platz {place}", "average place {place}"),
    "mem.figure.paid": ("gezahlt {amount}", "paid {amount}"),
    "mem.figure.won_money": ("gewonnen {amount}", "won {amount}"),
    "mem.stats_title": ("📊 {name} · {season}", "📊 {name} · {season}"),
    "mem.own_title": ("📊 {name} an allen Tischen", "📊 {name} at every table"),
    "mem.own_chat": ("»{chat}«", "\"{chat}\""),
    "mem.this_chat": ("dieser Chat", "this chat"),
    "mem.season": ("Saison {no}", "season {no}"),
    "mem.all_seasons": ("alle Saisons", "all seasons"),
    "mem.games_line": ("{game}: {matches} · {won} gewonnen · {deals}, {deals_won} gewonnen · {share} der Punkte",
                       "{game}: {matches} · {won} won · {deals}, {deals_won} won · {share} of the points"),
    "mem.matches_one": ("1 Partie", "1 match"),
    "mem.matches": ("{n} Partien", "{n} matches"),
    "mem.deals_one": ("1 Spiel", "1 deal"),
    "mem.deals": ("{n} Spiele", "{n} deals"),
    "mem.rating": ("Wertung {rating}", "rating {rating}"),
    "mem.rating_place": ("Wertung {rating} · Platz {place} der Rangliste", "rating {rating} · place {place} in the ranking"),
    "mem.partners": ("Mit: {items}", "With: {items}"),
    "mem.opponents": ("Gegen: {items}", "Against: {items}"),
    "mem.duo": ("{name} {won} von {matches}", "{name} {won} of {matches}"),
    "mem.no_matches": ("{name} hat hier in {season} noch keine Partie zu Ende gespielt.",
                       "{name} has not finished a match here in {season} yet."),
    "mem.no_own": ("Du hast noch an keinem Tisch eine Partie zu Ende gespielt, oder du wirst nirgends mitgezählt.",
                   "You have not finished a match at any table yet, or no table counts you."),
    "mem.ranking_title": ("🏆 Rangliste {game} · {season}", "🏆 Ranking {game} · {season}"),
    "mem.ranked": ("{place}. {name} {rating} ({matches})", "{place}. {name} {rating} ({matches})"),
    "mem.unranked": ("Noch ohne Platz (unter {least} Partien): {n}", "Not ranked yet (under {least} matches): {n}"),
    "mem.computers": ("Computer: {items}", "Computers: {items}"),
    "mem.computer_level": ("Computer ({level})", "Computer ({level})"),
    "mem.ranking_empty": ("Noch niemand hat {least} Partien {game} in {season}.",
                          "Nobody has played {least} matches of {game} in {season} yet."),
    "mem.ranking_hint": ("Bild: bild {game} · Statistik: statistik NAME", "Chart: chart {game} · Stats: stats NAME"),
    "mem.chart_title": ("Wertung {game} · {season}", "Rating {game} · {season}"),
    "mem.chart_x": ("Partie", "match"),
    "mem.chart_y": ("Wertung", "Rating"),
    "mem.chart_caption": ("📈 Die Wertungen in {game}, {season}", "📈 The ratings in {game}, {season}"),
    "mem.nobody": ("jemand", "someone"),
    "mem.history_title": ("📜 Die letzten Partien", "📜 The last matches"),
    "mem.history_hint": ("Zettel einer Partie: verlauf NR", "A match's score sheet: history NO"),
    # --- a group's tournaments in its memory (bot/words/evening.py, bot/words/stats.py)
    "mem.tourney_line": ("🏆 {when} · Turnier {game} · {entrants} · {top}", "🏆 {when} · Tournament {game} · {entrants} · {top}"),
    "mem.tourney_teams": ("{n} Teams", "{n} teams"),
    "mem.tourney_players": ("{n} Spieler", "{n} players"),
    "mem.tourneys": ("Turniere: {n}, gewonnen {won}", "Tournaments: {n}, won {won}"),
    "mem.match_line": ("{no}. {when} · {game} · {result}", "{no}. {when} · {game} · {result}"),
    "mem.won_team": ("{team} gewinnen {score} gegen {other}", "{team} beat {other} {score}"),
    "mem.won_one": ("{name} gewinnt · {places}", "{name} wins · {places}"),
    "mem.undecided": ("ohne Sieger {score}", "no winner {score}"),
    "mem.sheet_of": ("Partie {no} · {when}", "match {no} · {when}"),
    "mem.tonight_title": ("🌙 Der Abend · {day}: {matches}", "🌙 Tonight · {day}: {matches}"),
    "mem.tonight_line": ("{name}: {won} von {matches} gewonnen", "{name}: won {won} of {matches}"),
    "mem.settlement": ("Abrechnung Rams ({matches}):", "Rams settlement ({matches}):"),
    "mem.pays_kasse": ("{name} zahlt {amount} in die Kasse", "{name} pays {amount} into the kitty"),
    "mem.pays_to": ("{name} zahlt {amount} an {payee}", "{name} pays {amount} to {payee}"),
    "mem.kasse_total": ("Zusammen in der Kasse: {amount}", "In the kitty: {amount}"),
    "mem.square": ("Alle sind quitt.", "Everyone is square."),
    "mem.export_caption": ("📎 Der Verlauf von {chat}: {matches}, als CSV und JSON",
                           "📎 The history of {chat}: {matches}, as CSV and JSON"),
    "mem.season_now": ("{season} läuft seit {since}. Neue Saison: saison neu",
                       "{season} has run since {since}. New season: season new"),
    "mem.season_first": ("Saison 1 läuft seit der ersten Partie. Neue Saison: saison neu",
                         "Season 1 has run since the first match. New season: season new"),
    "mem.season_new": ("🎉 Saison {no} beginnt: die Ranglisten fangen von vorn an, der Verlauf bleibt.",
                       "🎉 Season {no} begins: the rankings start afresh, the history stays."),
    "mem.opted_out": ("{name} wird hier ab jetzt nicht mehr mitgezählt. Wieder mitzählen: statistik an",
                      "{name} is no longer counted here from now on. Counted again: stats on"),
    "mem.opted_in": ("{name} wird hier wieder mitgezählt.", "{name} is counted here again."),
    "mem.forgotten": ("{name} ist aus Statistik, Wertung und Verlauf dieses Chats gelöscht.",
                      "{name} is removed from this chat's statistics, ratings and history."),
    "mem.forgotten_all_one": ("{name} ist aus Statistik, Wertung und Verlauf eines Chats gelöscht.",
                              "{name} is removed from the statistics, ratings and history of one chat."),
    "mem.forgotten_all": ("{name} ist aus Statistik, Wertung und Verlauf von {n} Chats gelöscht.",
                          "{name} is removed from the statistics, ratings and history of {n} chats."),
    "mem.not_recorded": ("Von {name} ist hier nichts gespeichert.", "Nothing of {name} is kept here."),
    # refusals of the memory's commands
    "mem.empty": ("Hier ist noch keine Partie zu Ende gespielt.", "No match has been played to the end here yet."),
    "mem.unknown_person": ("»{name}« hat hier keine Partie gespielt (oder ist nicht eindeutig).",
                           "\"{name}\" has not played here (or the name is not unique)."),
    "mem.unknown_season": ("Saison {word} gibt es hier nicht.", "There is no season {word} here."),
    "mem.unknown_match": ("Partie {word} gibt es hier nicht (mehr).", "There is no match {word} here (any more)."),
    "mem.history_word": ("»{word}« ist keine Partie-Nummer und kein Spiel (verlauf 12, verlauf bauer). Spiele: {games}",
                         "\"{word}\" is not a match number or a game (history 12, history bauer). Games: {games}"),
    "mem.sheet_gone": ("Den Zettel von Partie {no} habe ich nicht mehr, nur die der letzten {kept}.",
                       "The score sheet of match {no} is gone; only the last {kept} are kept."),
    "mem.nothing_tonight": ("Heute ist hier noch keine Partie zu Ende gegangen.", "No match has ended here today."),
    "mem.season_word": ("Neue Saison mit: saison neu", "A new season with: season new"),
    "mem.admins_only": ("Eine neue Saison beginnen nur die Admins der Gruppe.",
                        "Only the group's admins start a new season."),
    "mem.files_later": ("Export und Bild gibt es hier je höchstens einmal pro Minute.",
                        "Export and chart: each at most once a minute here."),
    "mem.no_chart": ("Für ein Bild braucht es in {game} ({season}) jemanden mit {least} Partien.",
                     "A chart needs someone with {least} matches of {game} ({season})."),
    "mem.which_stats": ("statistik [name], statistik aus, statistik an", "stats [name], stats off, stats on"),
    # --- tournaments in the chats (bot/service/tourney.py, bot/words/tourney.py)
    "tn.usage": ("Turnier: turnier neu SPIEL [jeder|gruppen|schweizer] [doppelt] [runde=2d] [regel=computer|wertung] "
                 "[option=wert] · turnier anmelden [PARTNER] · turnier abmelden · turnier los · turnier tabelle · "
                 "turnier abbrechen",
                 "Tournament: tournament new GAME [round-robin|groups|swiss] [twice] [round=2d] "
                 "[rule=computer|forfeit] [option=value] · tournament join [PARTNER] · tournament leave · "
                 "tournament start · tournament standings · tournament abort"),
    "tn.headline": ("🏆 Turnier: {game} · {format}", "🏆 Tournament: {game} · {format}"),
    "tn.format.round-robin": ("jeder gegen jeden", "round robin"),
    "tn.format.groups-ko": ("Gruppen, dann K.-o.", "groups, then knockout"),
    "tn.format.swiss": ("Schweizer System", "Swiss system"),
    "tn.twice": (", Hin- und Rückspiel", ", home and away"),
    "tn.terms": ("Eine Runde dauert {round}; danach: {rule}. Veranstalter: {name}",
                 "A round lasts {round}; after it: {rule}. Organizer: {name}"),
    "tn.rule.computer": ("Computer spielen für die Fehlenden zu Ende", "computers play on for those missing"),
    "tn.rule.forfeit": ("Wertung nach Stand, bei Gleichstand verlieren beide",
                        "scored as it stands; level, both lose"),
    "tn.registered": ("Angemeldet ({n}):", "Registered ({n}):"),
    "tn.alone": (" (allein, Partner wird gelost)", " (alone, partner by lot)"),
    "tn.invite_line": ("{name} lädt {partner} ein: wartet auf Bestätigung", "{name} invites {partner}: waiting"),
    "tn.how_to_join": ("Anmelden: Knopf (allein) oder »turnier anmelden PARTNER«; der Partner bestätigt.",
                       "Join: the button (alone) or \"tournament join PARTNER\"; the partner confirms."),
    "tn.btn.join": ("Anmelden", "Join"),
    "tn.btn.leave": ("Abmelden", "Leave"),
    "tn.btn.confirm": ("✔ {name}: mit {by}", "✔ {name}: with {by}"),
    "tn.btn.start": ("Auslosen und los (Veranstalter)", "Draw and start (organizer)"),
    "tn.withdrawn": (" (zurückgezogen)", " (withdrawn)"),
    "tn.row.bauernstoss": ("Partien {won} · Striche {pf}:{pa}", "won {won} · Striche {pf}:{pa}"),
    "tn.row.alter_schafkopf": ("Partien {won} · Striche {pf}:{pa}", "won {won} · Striche {pf}:{pa}"),
    "tn.row.bauerchen": ("Siege {won} · Punkte {pf}:{pa}", "won {won} · points {pf}:{pa}"),
    "tn.row.bauer": ("Brote {pf}:{pa} · Siege {won}", "Brote {pf}:{pa} · won {won}"),
    "tn.row_rams": ("Platzpunkte {place} · Stiche {pts} · Kartoffeln {k}",
                    "place points {place} · tricks {pts} · Kartoffeln {k}"),
    "tn.by.won": ("nach Siegen", "on wins"),
    "tn.by.points_for": ("nach Punkten", "on points"),
    "tn.by.points_for.bauernstoss": ("nach Strichen", "on Striche"),
    "tn.by.points_for.alter_schafkopf": ("nach Strichen", "on Striche"),
    "tn.by.points_for.bauer": ("nach Broten", "on Brote"),
    "tn.by.points_for.rams": ("nach Stichen", "on tricks"),
    "tn.by.place_points": ("nach Platzpunkten", "on place points"),
    "tn.by.fewer_kartoffeln": ("weniger Kartoffeln", "fewer Kartoffeln"),
    "tn.by.head_to_head": ("direkter Vergleich", "head to head"),
    "tn.by.lot": ("Los", "lot"),
    "tn.by.knockout": ("K.-o.-Spiel", "knockout game"),
    "tn.by.group": ("Gruppenplatz", "group place"),
    "tn.round_line": ("Runde {round} von {of}, noch {left}", "Round {round} of {of}, {left} left"),
    "tn.closed": ("Anmeldung offen", "Registration open"),
    "tn.page": ("Seite {page}/{pages}", "Page {page}/{pages}"),
    "tn.final_head": ("Endstand", "Final standings"),
    "tn.final": ("🏆 {game}: die Endwertung", "🏆 {game}: the final ranking"),
    "tn.group": ("Gruppe {group}", "Group {group}"),
    "tn.places": ("Platz {best}–{worst}", "Places {best}–{worst}"),
    "tn.bye": ("{name} hat spielfrei", "{name} has a bye"),
    "tn.versus": (" gegen ", " vs "),
    "tn.opened": ("🏆 Turnier eröffnet. Anmelden mit dem Knopf oder »turnier anmelden PARTNER«.",
                  "🏆 Tournament opened. Join with the button or \"tournament join PARTNER\"."),
    "tn.draw": ("🎲 Die Auslosung, Runde {round} von {of}:", "🎲 The draw, round {round} of {of}:"),
    "tn.round": ("Runde {round} von {of} (Zeit: {left}):", "Round {round} of {of} ({left} to play):"),
    "tn.seed": ("Startwert der Auslosung: {seed}. Dieselben Anmeldungen in derselben Reihenfolge ergeben mit ihm "
                "dieselbe Auslosung.",
                "The draw's seed: {seed}. The same entries in the same order give the same draw with it."),
    "tn.table_for": ("🏆 Turnierspiel {pairing}: {names}", "🏆 Tournament match {pairing}: {names}"),
    "tn.remind": ("⏰ Runde {round} endet in {left}. Noch offen: {names}",
                  "⏰ Round {round} ends in {left}. Still open: {names}"),
    "tn.decided_cpu": ("⌛ Frist um: Computer spielen für die Fehlenden zu Ende ({names}).",
                       "⌛ Time is up: computers play on for those missing ({names})."),
    "tn.forfeit_mark": (" (gewertet, nicht zu Ende gespielt)", " (scored, not played to the end)"),
    "tn.result": ("🏆 Ergebnis {pairing}: {outcome}", "🏆 Result {pairing}: {outcome}"),
    "tn.withdrew": ("{name} zieht zurück: die restlichen Spiele werden kampflos gewertet.",
                    "{name} withdraws: the remaining matches are forfeits."),
    "tn.unregistered": ("{name} ist abgemeldet.", "{name} has left the tournament."),
    "tn.aborted": ("Das Turnier ist abgebrochen.", "The tournament was aborted."),
    "tn.registration_closed": ("Die Anmeldung ist geschlossen.", "Registration is closed."),
    "tn.full": ("Das Turnier ist voll ({most}).", "The tournament is full ({most})."),
    "tn.already_registered": ("Du bist schon angemeldet.", "You are registered already."),
    "tn.no_teams": ("Rams spielt jeder für sich: einfach anmelden.", "Rams is every player for himself: just join."),
    "tn.no_invite": ("Diese Einladung gibt es nicht mehr.", "That invitation is gone."),
    "tn.not_for_you": ("Diese Einladung ist für {name}.", "This invitation is for {name}."),
    "tn.own_invite": ("Deine eigene Einladung bestätigt dein Partner.", "Your partner confirms your invitation."),
    "tn.not_registered": ("Du bist nicht angemeldet.", "You are not registered."),
    "tn.only_organizer": ("Das darf nur der Veranstalter, {name}.", "Only the organizer, {name}, may do that."),
    "tn.field_size": ("{n} Anmeldungen passen nicht zu diesem Format. Jeder gegen jeden: 2 bis 64 Teams, in Rams "
                      "3 bis 7 Spieler an einem Tisch; Gruppen und K.-o.: Gruppen von mindestens 2 Teams (Rams: "
                      "Tische von 3 bis 7); Schweizer System: 2 bis 64 Teams (Rams: 3 bis 64 Spieler).",
                      "{n} entries don't fit this format. Round robin: 2 to 64 teams, in Rams 3 to 7 players at "
                      "one table; groups and knockout: groups of at least 2 teams (Rams: tables of 3 to 7); Swiss: "
                      "2 to 64 teams (Rams: 3 to 64 players)."),
    "tn.cannot_draw": ("Mit diesen Einstellungen lässt sich nicht auslosen.", "These settings cannot be drawn."),
    "tn.exists": ("Hier läuft schon ein Turnier.", "A tournament is already on here."),
    "tn.too_many": ("In diesem Chat laufen schon {most} Turniere.", "This chat already runs {most} tournaments."),
    "tn.none": ("Hier läuft kein Turnier: »turnier neu SPIEL«.", "No tournament here: \"tournament new GAME\"."),
    "tn.bad_rule": ("Regel: computer oder wertung.", "Rule: computer or forfeit."),
    "tn.bad_round": ("Eine Runde dauert 10m bis 30d, zum Beispiel runde=2d.",
                     "A round lasts 10m to 30d, for example round=2d."),
    "tn.group_only": ("Turniere gibt es nur in Gruppen.", "Tournaments are for groups."),
    # --- a tournament's finished table (bot/words/render.py)
    "tn.match_over": ("🏆 Turnierspiel beendet: der Stand steht in der Turniernachricht (»turnier stand«).",
                      "🏆 Tournament match over: the standings are in the tournament message (\"tournament standings\")."),
    "tn.no_rematch": ("Ein Turnierspiel hat keine Revanche: das Turnier lost die nächste Runde aus.",
                      "A tournament match has no rematch: the tournament draws the next round."),
    # --- notifications, pace, quiet hours (bot/notify.py, bot/pace.py)
    "notify.every": ("🔔 {name}: bei jedem Zug bekommst du eine neue Nachricht, wenn du eine Weile weg warst.",
                     "🔔 {name}: you get a new message for every turn once you have been away a while."),
    "notify.reminders": ("🔕 {name}: nur Erinnerungen, deine Karten werden still aktualisiert.",
                         "🔕 {name}: reminders only; your hand is updated silently."),
    "notify.off": ("🔕 {name}: keine Benachrichtigungen, auch Erinnerungen nennen dich nicht.",
                   "🔕 {name}: no notifications; reminders don't mention you either."),
    "notify_unknown": ("Benachrichtigung: jeder Zug · nur Erinnerungen · aus",
                       "Notify: every turn · reminders · off"),
    "pace.schnell": ("schnell", "fast"),
    "pace.normal": ("normal", "normal"),
    "pace.fernspiel": ("Fernspiel", "correspondence"),
    "pace_line": ("Tempo: {pace} · Erinnerung nach {remind} · Computer nach {auto}",
                  "Pace: {pace} · reminder after {remind} · computer after {auto}"),
    "pace_unknown": ("Tempo: schnell · normal · Fernspiel", "Pace: fast · normal · correspondence"),
    "timer_off": ("nie", "never"),
    "btn.pace": ("Tempo: {pace}", "Pace: {pace}"),
    "quiet_set": ("🌙 Ruhezeit {start}–{end} ({zone}): keine Erinnerungen, kein Timer läuft ab.",
                  "🌙 Quiet hours {start}–{end} ({zone}): no reminders, no timer runs out."),
    "quiet_off": ("Keine Ruhezeit: Erinnerungen und Timer laufen rund um die Uhr.",
                  "No quiet hours: reminders and timers run around the clock."),
    "quiet_unknown": ("Ruhezeit zum Beispiel: ruhezeit 23-7 oder ruhezeit 22:30-6:30 oder ruhezeit aus "
                      "(höchstens 16 Stunden)",
                      "Quiet hours, for example: quiet 23-7 or quiet 22:30-6:30 or quiet off (16 hours at most)"),
    "tz_set": ("Zeitzone: {zone}", "Time zone: {zone}"),
    "tz_unknown": ("Zeitzone bitte als Name wie Europe/Berlin oder Europe/Zurich.",
                   "Time zone as a name like Europe/Berlin or Europe/Zurich, please."),
    # --- the web table (bot/words/webview.py, adapters/web)
    "web.open": ("🃏 Am Tisch ansehen", "🃏 View the table"),
    "web.hand": ("Deine Karten", "Your cards"),
    "web.trick": ("Stich", "Trick"),
    "web.last_trick": ("Letzter Stich", "Last trick"),
    "web.score": ("Stand", "Score"),
    "web.story": ("Bisher", "So far"),
    "web.you": ("du", "you"),
    "web.cards_left": ("{n} Karten", "{n} cards"),
    "web.card_left": ("1 Karte", "1 card"),
    "web.sits_out": ("setzt aus", "sits out"),
    "web.lobby": ("Der Tisch wartet auf Spieler: im Chat beitreten und starten.",
                  "The table waits for players: join and start in the chat."),
    "web.offline": ("Verbindung weg – ich versuche es wieder …", "Connection lost – trying again …"),
    "web.denied": ("Kein Zugang: der Link ist ungültig oder abgelaufen. Öffne den Tisch neu aus dem Chat.",
                   "No access: the link is invalid or expired. Open the table again from the chat."),
    "web.not_seated": ("Du sitzt nicht an diesem Tisch.", "You don't sit at this table."),
    "web.no_table": ("Diesen Tisch gibt es nicht mehr.", "This table is gone."),
    "web.too_many": ("Zu viele offene Fenster an diesem Tisch.", "Too many open windows at this table."),
    "web.too_fast": ("Nicht so schnell.", "Not so fast."),
    "web.busy": ("Gerade zu viele Verbindungen, bitte gleich noch einmal.", "Too many connections right now, "
                 "please try again shortly."),
}

_HINTS = {"must_follow", "must_trump", "must_overtrump", "must_lead_trump", "trump_ace_first", "jack_rule",
          "not_in_hand", "not_now", "must_announce", "count_too_low", "no_mit"}


def supported(lang: str | None) -> bool:
    """Whether ``lang`` is a language the texts exist in."""
    return lang in LANGS


def _param(lang: str, name: str, value: object) -> object:
    if isinstance(value, str):
        return clip(value) if name in _ECHOED else value
    if isinstance(value, Text):
        return t(lang, value.key, **value.params)
    return value


def option_label(lang: str, name: str) -> str:
    """An option's name in the players' language (``sixes`` → ``Sechser``); the key itself if it has none."""
    key = f"opt.{name}"
    return t(lang, key) if key in TEXTS else name


def t(lang: str, key: str, **params: object) -> str:
    """The text ``key`` in ``lang`` (German if unknown), formatted with ``params``."""
    text = TEXTS[key][_COLUMN.get(lang, 0)]
    return text.format_map({k: _param(lang, k, v) for k, v in params.items()}) if params else text


def game_name(game: str, lang: str) -> str:
    """The name of game ``game`` as its players say it."""
    return t(lang, f"game.{game}")


def hint_key(key: str) -> str:
    """The text key explaining an engine restriction hint (``must_follow`` ...)."""
    return f"hint.{key}" if key in _HINTS else "hint.other"


def hint(lang: str, key: str) -> str:
    """The explanation of an engine restriction hint (``must_follow`` ...)."""
    return t(lang, hint_key(key))
