"""The console adapter, driven as players use it: ``stammtisch play`` through stdin, in this process (the
command's ``main``, :mod:`tests.clikit`); Ctrl-C in a real process."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys

import pytest

from tests.clikit import Stammtisch, terminal_player


@pytest.fixture
def env(redis_url, monkeypatch):
    """The environment of a terminal player of his own (his login name keys his console table)."""
    return terminal_player(monkeypatch, redis_url)


@pytest.fixture
def stammtisch(env, monkeypatch, capsys) -> Stammtisch:
    """``stammtisch ARGS`` as that player runs it."""
    return Stammtisch(monkeypatch, capsys)


def test_play_quit_and_resume(stammtisch):
    moves = "".join(f"{n}\n" for _ in range(12) for n in (1, 2, 3, 4, 5))
    run = stammtisch("play", "bauer", "--options", '{"short_deck": true}',
                     stdin="hilfe\nB♣\nweiter\n" + moves + "quit\n")  # weiter: the moment before the first lead
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "🃏 Bauer · Spiel 1" in out and "Deine Karten:" in out and "[1] " in out
    assert "Karte tippen" in out and "»zettel«" in out and "neu SPIEL" not in out  # the console's help, not the chat's
    assert "Deine Wahl> " in out
    assert "Letzter Stich:" in out
    assert out.rstrip().endswith(f"Der Tisch bleibt stehen. Weiter mit: {sys.executable} -m bot.run.cli play --resume")
    again = stammtisch("play", "--resume", stdin="tisch\nquit\n")
    assert again.returncode == 0, again.stderr
    assert "🃏 Bauer" in again.stdout and "Deine Karten:" in again.stdout
    other = stammtisch("play", "rams", stdin="abbrechen\nabbrechen\nquit\n")
    assert "Hier läuft noch ein Tisch (Bauer); es geht dort weiter. »abbrechen« bricht ihn ab und gibt Rams." \
        in other.stdout
    kept, _, dealt = other.stdout.partition("Tisch abgebrochen.")
    assert "🃏 Bauer · Spiel " in kept and "🃏 Rams · Spiel 1" in dealt, "the game asked for is dealt in its place"
    assert "Neuer Tisch" not in dealt.split("🃏 Rams")[0], "no choice of the aborted table is offered"
    gone = stammtisch("play", "--resume", stdin="")
    assert gone.returncode == 1 and "Hier ist kein Tisch offen" in gone.stdout


def test_run_without_a_token_plays_in_the_terminal(stammtisch):
    run = stammtisch("run", stdin="rams\n1\nquit\n")
    assert run.returncode == 0, run.stderr
    assert "Welches Spiel?" in run.stdout and "🃏 Rams · Spiel 1" in run.stdout
    stammtisch("play", "--resume", stdin="abbrechen\n")


def test_which_game_asks_again_after_a_typo_or_a_bare_enter_and_hilfe_names_the_games_words(stammtisch):
    run = stammtisch("run", stdin="\nbauerchn\nbauerchen\n99\nhilfe\nquit\n")
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert out.count("Welches Spiel?") == 3 and "»bauerchn« kenne ich nicht. Welches Spiel?" in out
    assert "🃏 Bauerchen · Spiel 1" in out and "Wahl 99 gibt es nicht." in out
    assert all(f"»{word}«" in out for word in ("mit", "ledig", "karten weg", "stoß", "zurück", "retour", "spritzen"))
    stammtisch("play", "--resume", stdin="abbrechen\n")
    left = stammtisch("run", stdin="quit\n")
    assert left.returncode == 0 and "kenne ich nicht" not in left.stdout and "Tisch" not in left.stdout, left.stdout
    gone = stammtisch("run", stdin="\n")
    assert gone.returncode == 1 and gone.stdout.rstrip().endswith("Kein Spiel gewählt."), "the end of input says so"


def test_no_arguments_and_no_token_explains_what_to_do(stammtisch):
    run = stammtisch()
    assert run.returncode == 0
    assert f"{sys.executable} -m bot.run.cli play bauerchen" in run.stdout and "TELEGRAM_TOKEN" in run.stdout


def test_bad_play_arguments(stammtisch):
    assert "--options is not JSON" in stammtisch("play", "bauer", "--options", "{").stderr
    assert "which game?" in stammtisch("play").stderr
    bad = stammtisch("play", "skat", stdin="quit\n")
    assert bad.returncode == 2 and bad.stdout == "" and bad.stderr.count("\n") == 1 and "unknown game 'skat'" in bad.stderr
    few = stammtisch("play", "bauer", "--players", "3")
    assert few.returncode == 2 and few.stderr == "stammtisch: bauer is played by 4 players, not 3\n"


async def test_the_computers_go_on_after_a_deal_without_a_tick_loop(store):
    """The console has no tick loop: it fires its own table's timers, so a deal played by the computers
    alone (the player sat out) does not leave the table waiting."""
    import io

    from adapters.console import Console
    from bot.protocol import tokens
    from bot.table.record import Table
    from tests.servicekit import TurnWatch, service

    svc = service(store, seed=8)
    console = Console(svc, io.StringIO(""), io.StringIO(), user="anna")
    assert await console.run("rams", 3) == 0
    watch = TurnWatch(store, console.table_id)
    for _ in range(3000):
        if Table.load((await store.load(console.table_id))[1]).status != "playing":
            break
        await watch.look()
        acts = [b for b in console.buttons if ":act:" in b.token and tokens.parse(b.token).arg in watch.allowed]
        assert acts, "the player has nothing to press: the table waits"
        await console.send(token=next((b for b in acts if b.token.endswith(":pa")), acts[0]).token)
    assert Table.load((await store.load(console.table_id))[1]).status == "finished"
    assert await store.due(float("inf")) == []


def numbered(out: str) -> list[list[str]]:
    """The numbered rows the console printed, each as its labels."""
    return [re.findall(r"\[\d+\] ([^\[]+?)(?=  \[|$)", line) for line in out.splitlines() if line.startswith("[1] ")]


def test_only_this_seats_choices_are_numbered_once(stammtisch):
    run = stammtisch("play", "bauerchen", stdin="quit\n")
    rows = numbered(run.stdout)
    assert len(rows) == 1, run.stdout  # one numbered list at the start
    assert "Meine Karten" not in rows[0]  # the hand is shown anyway; offers come with the hand when legal
    again = stammtisch("play", "--resume", stdin="sprache en\nhelp\nquit\n")
    assert len(numbered(again.stdout.split("Language: English")[0])) == 1
    assert "Type the number of a choice" in again.stdout and "Your choice> " in again.stdout
    assert again.stdout.rstrip().endswith(f"The table stays. Go on with: {sys.executable} -m bot.run.cli play --resume")
    back = stammtisch("play", "--resume", stdin="quit\n")
    assert "Your cards:" in back.stdout and "Your choice> " in back.stdout and "Deine Wahl" not in back.stdout, \
        "the language chosen at this table, the console's own prompts too"
    other = stammtisch("play", "bauerchen", "--options", '{"die_letzte": false}', stdin="abbrechen\nabbrechen\n")
    assert "A table (Bauerchen) is still open here; it goes on" in other.stdout, "in the language chosen here"


def test_ctrl_c_leaves_cleanly(env, stammtisch):
    proc = subprocess.Popen([sys.executable, "-m", "bot.run.cli", "play", "bauer"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # as in a terminal
    for line in proc.stdout:  # wait until the table is dealt and the console reads
        if line.startswith("[1] "):
            break
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=60)  # stdin stays open: the console leaves because of Ctrl-C, not for want of input
    out, err = proc.stdout.read(), proc.stderr.read()
    proc.stdin.close()
    assert proc.returncode == 130 and "Traceback" not in err, err
    assert out.rstrip().endswith(f"Der Tisch bleibt stehen. Weiter mit: {sys.executable} -m bot.run.cli play --resume")
    stammtisch("play", "--resume", stdin="abbrechen\n")


@pytest.mark.parametrize("game", ["bauernstoss", "alter_schafkopf", "bauerchen", "bauer", "rams"])
async def test_the_console_tells_every_call_trick_and_result_of_a_deal(store, game):
    """A deal in the terminal, as its transcript: each announcement and offer with who made it, each
    trick with who played which card and who took it, then the result explained."""
    import io

    from adapters.console import Console
    from bot.protocol import tokens
    from bot.table.record import Table
    from bot.words import story
    from tests.servicekit import playable, service
    from tests.transcript import assert_told, story_lines

    svc = service(store, seed=21)
    out = io.StringIO()
    console = Console(svc, io.StringIO(""), out, user="anna")
    assert await console.run(game) == 0
    while (table := Table.load((await store.load(console.table_id))[1])).deals < 2 and table.status == "playing":
        allowed = playable(table)[1]
        acts = [b for b in console.buttons if ":act:" in b.token and tokens.parse(b.token).arg in allowed
                or table.declare and ":let_pass:" in b.token]  # before the first lead: "Weiter"
        assert acts, "the player has nothing to press"
        await console.send(token=acts[-1].token)
    expected, ended = await story_lines(store, table)
    assert ended >= 2
    transcript = out.getvalue()
    assert_told(expected, transcript)
    assert_told(story.result_lines(table, table.sheet[-1]), transcript)
    assert "Letzter Stich: " in transcript


def test_each_name_at_one_login_keeps_a_table_of_its_own(stammtisch):
    run = stammtisch("play", "bauerchen", "--name", "Kurt", stdin="quit\n")
    assert run.returncode == 0 and "Kurt+Computer 3" in run.stdout, run.stderr
    assert run.stdout.rstrip().endswith(f"Weiter mit: {sys.executable} -m bot.run.cli play --resume --name Kurt")
    lena = stammtisch("play", "bauer", "--name", "Lena Maria", stdin="quit\n")  # a second person, same login
    assert "Hier läuft noch ein Tisch" not in lena.stdout and "Lena Maria+Computer 3" in lena.stdout, lena.stdout
    assert lena.stdout.rstrip().endswith("play --resume --name 'Lena Maria'")
    login = stammtisch("play", "--resume", stdin="quit\n")  # the login without a name has no table
    assert login.returncode == 1 and "Hier ist kein Tisch offen" in login.stdout and "--name NAME" in login.stdout
    again = stammtisch("play", "--resume", "--name", "Kurt", stdin="tisch\nabbrechen\n")
    assert again.returncode == 0, again.stderr
    assert "🃏 Bauerchen" in again.stdout and "Kurt+Computer 3" in again.stdout and "Deine Karten:" in again.stdout
    stammtisch("play", "--resume", "--name", "Lena Maria", stdin="abbrechen\n")


def test_play_help_says_how_two_people_play_side_by_side(capsys):
    from bot.run.cli import main

    assert main(["play", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "two people at one machine play side by side" in out and "play --resume --name NAME" in out


def test_statistik_shows_the_terminal_players_matches_also_after_a_restart(env, stammtisch):
    moves = "".join(f"{n}\n" for _ in range(12) for n in (7, 1, 2, 3, 4, 5))  # 7: »Weiter« before the first lead
    run = stammtisch("play", "bauer", "--name", "Kurt", "--options", '{"short_deck": true, "target_brote": 1}',
                     stdin="hilfe\n" + moves + "statistik\nquit\n")
    assert run.returncode == 0, run.stderr
    assert "was der Tisch sich merkt: »statistik«, »rangliste«" in run.stdout
    finished = len(re.findall(r"^🏆 .* gewinnen die Partie", run.stdout, re.M))
    assert finished >= 1, run.stdout[-2000:]
    shown = run.stdout.split("» 📊 ")[-1]
    assert shown.startswith("Kurt an allen Tischen") and "»Konsole«" in shown, "the name the table shows"
    assert f"Bauer: {finished} Partie{'n' if finished > 1 else ''} · " in shown, shown
    against = next(line for line in shown.splitlines() if "Gegen: " in line)  # three computers of one level
    assert re.fullmatch(rf".*Gegen: Computer \(\w+\) \d+ von {finished}", against), against
    again = stammtisch("play", "--resume", "--name", "Kurt", stdin="statistik\nabbrechen\nquit\n")
    if again.returncode == 1 and "kein Tisch offen" in again.stdout + again.stderr:  # the last move ended a match
        again = stammtisch("play", "bauer", "--name", "Kurt", stdin="statistik\nabbrechen\nquit\n")
    assert again.returncode == 0 and f"Bauer: {finished} Partie" in again.stdout.split("» 📊 ")[-1]
    assert again.stdout.split("» 📊 ")[-1].startswith("Kurt an allen Tischen")
    data = stammtisch("stats", "--json", "--game", "bauer", "--name", "Kurt")
    assert data.returncode == 0, data.stderr
    found = json.loads(data.stdout)
    assert found["player"] == f"{env['USER']}/Kurt" and found["name"] == "Kurt"
    assert [g["matches"] for g in found["games"]] == [finished]
    assert [m["no"] for m in found["recent"]] == list(range(finished, max(0, finished - 10), -1))
    text = stammtisch("stats", "--lang", "en", "--name", "Kurt")
    assert text.stdout.startswith("📊 Kurt · all seasons") and f"Bauer: {finished} match" in text.stdout
    assert "You have not finished a match" in stammtisch("stats", "--lang", "en").stdout, "the login's apart"


@pytest.mark.parametrize("args", [("stats", "--game", "schach"), ("stats", "--bogus"), ("stats", "--game"),
                                  ("stats", "--lang", "fr")])
def test_stats_refuses_bad_arguments_in_one_line(stammtisch, args):
    run = stammtisch(*args)
    assert run.returncode == 2 and run.stdout == "" and len(run.stderr.strip().splitlines()) == 1, run.stderr
