"""2-player Swiss rounds paired by FIDE's Dutch system, through py4swiss (MIT).

The tournament's history is handed to the library as the TRF it reads (built in memory, never
written to a file): a starting number per entrant in seed order, each round's result as FIDE
writes it (a pairing-allocated bye "U", a late joiner's half bye "H", absence "Z"; a game
against an AI seat as the unpaired round it stands for), and the withdrawn left out of the
round. The Dutch system never pairs two players twice and never
gives the pairing-allocated bye twice; when that is impossible (small fields, long
tournaments) it says so and the caller pairs by :mod:`.grouping` instead.
"""

from __future__ import annotations

from py4swiss.engines import DutchEngine
from py4swiss.engines.common import PairingError
from py4swiss.trf import ParsedTrf
from py4swiss.trf.codes import PlayerCode
from py4swiss.trf.results import ColorToken, ResultToken, RoundResult
from py4swiss.trf.sections import PlayerSection, XSection

from bot.tournaments.model import ByeKind, Tournament, is_bot

_BYES = {ByeKind.FULL: ResultToken.PAIRING_ALLOCATED_BYE, ByeKind.HALF: ResultToken.HALF_POINT_BYE}
_BOT_GAME = {  # a game against an AI seat, as the unpaired round it stands for
    ResultToken.WIN: ResultToken.PAIRING_ALLOCATED_BYE,
    ResultToken.DRAW: ResultToken.HALF_POINT_BYE,
    ResultToken.LOSS: ResultToken.ZERO_POINT_BYE,
}
_POINTS_TIMES_TEN = {
    ResultToken.WIN: 10,
    ResultToken.DRAW: 5,
    ResultToken.LOSS: 0,
    ResultToken.PAIRING_ALLOCATED_BYE: 10,
    ResultToken.HALF_POINT_BYE: 5,
    ResultToken.ZERO_POINT_BYE: 0,
}


class NoDutchPairing(Exception):
    """The Dutch system finds no pairing that keeps its absolute rules."""


def dutch_round(tournament: Tournament) -> tuple[list[tuple[int, int]], int | None]:
    """The next round's pairs (first player first in seat order) and the bye, if any."""
    trf = _trf(tournament)
    try:
        pairings = DutchEngine.generate_pairings(trf)
    except PairingError as error:
        raise NoDutchPairing(str(error)) from error
    players = _numbered(tournament)
    pairs: list[tuple[int, int]] = []
    bye: int | None = None
    for pairing in pairings:
        if pairing.black == 0:
            bye = players[pairing.white - 1]
        else:
            pairs.append((players[pairing.white - 1], players[pairing.black - 1]))
    return pairs, bye


def _numbered(tournament: Tournament) -> list[int]:
    """Entrants in starting-number order (starting number = index + 1)."""
    return [entrant.player for entrant in sorted(tournament.entrants, key=lambda e: e.seed)]


def _trf(tournament: Tournament) -> ParsedTrf:
    players = _numbered(tournament)
    number = {player: index + 1 for index, player in enumerate(players)}
    results: dict[int, list[RoundResult]] = {player: [] for player in players}
    for round_ in tournament.rounds:
        seen: set[int] = set()
        for table in round_.tables:
            if table.places is None:
                raise ValueError("pairing a round before the last one ended")
            first, second = table.players
            tokens = _game_tokens(table.places)
            if is_bot(first) or is_bot(second):  # a game against an AI seat: to the Dutch
                # system, the round a bye would have been (it is never a second one)
                human, token = (second, tokens[1]) if is_bot(first) else (first, tokens[0])
                results[human].append(
                    RoundResult(id=0, color=ColorToken.BYE_OR_NOT_PAIRED, result=_BOT_GAME[token])
                )
                seen.add(human)
                continue
            for player, opponent, colour, token in (
                (first, second, ColorToken.WHITE, tokens[0]),
                (second, first, ColorToken.BLACK, tokens[1]),
            ):
                results[player].append(RoundResult(id=number[opponent], color=colour, result=token))
                seen.add(player)
        for bye in round_.byes:
            token = _BYES[bye.kind]
            results[bye.player].append(
                RoundResult(id=0, color=ColorToken.BYE_OR_NOT_PAIRED, result=token)
            )
            seen.add(bye.player)
        for entrant in tournament.entrants:
            if entrant.player in seen:
                continue
            token = (
                ResultToken.HALF_POINT_BYE
                if round_.number <= entrant.late_rounds
                else ResultToken.ZERO_POINT_BYE
            )
            results[entrant.player].append(
                RoundResult(id=0, color=ColorToken.BYE_OR_NOT_PAIRED, result=token)
            )
    next_round = len(tournament.rounds) + 1
    sections = [
        PlayerSection(
            code=PlayerCode.PLAYER,
            starting_number=number[player],
            points_times_ten=sum(_POINTS_TIMES_TEN[result.result] for result in results[player]),
            rank=number[player],
            results=results[player],
        )
        for player in players
    ]
    absent = {
        number[entrant.player]
        for entrant in tournament.entrants
        if not entrant.active_in(next_round)
    }
    rounds = max(tournament.rules.rounds, next_round)
    trf = ParsedTrf(
        player_sections=sections,
        x_section=XSection(number_of_rounds=rounds, zeroed_ids=absent),
    )
    trf.validate_contents()
    return trf


def _game_tokens(places: tuple[int, ...]) -> tuple[ResultToken, ResultToken]:
    first, second = places
    if first == second:
        return ResultToken.DRAW, ResultToken.DRAW
    if first < second:
        return ResultToken.WIN, ResultToken.LOSS
    return ResultToken.LOSS, ResultToken.WIN
