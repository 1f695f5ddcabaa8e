"""The view between campaigns and at the end: no goal carried over, no attempt listed as open."""

from __future__ import annotations

from domain.empire_builder import GAME
from domain.kernel import engine
from domain.kernel.bots import RandomBot, play_random_game
from domain.kernel.chance import Chance


def test_goal_reached_does_not_carry_into_the_next_allocation_and_no_attempt_stays_open() -> None:
    goal_campaigns = 0
    for seed in (b"g1", b"g2", b"g3"):
        played = play_random_game(GAME, 3, seed=seed)
        state = GAME.initial_state(3, GAME.normalize_options(3, {}))
        for event in played.events:
            state = GAME.evolve(state, event)
            if event.type == "CampaignEnded" and event.reason == "goal_reached":  # type: ignore[attr-defined]
                goal_campaigns += 1
            if event.type == "CampaignStarted":
                assert GAME.view(state, None)["goal_reached"] is False
        view = GAME.view(state, None)
        assert GAME.is_over(state)
        assert all(province["attempts"] == [] for province in view["provinces"]), "attempts were evaluated"
    assert goal_campaigns, "some campaign must end on its goal for the test to mean anything"


def test_attempts_of_a_running_round_are_listed() -> None:
    """The clean-up above happens at the end of a campaign, not before the evaluation."""
    chance = Chance(b"att")
    state, _ = engine.start(GAME, 3, GAME.normalize_options(3, {}), chance)
    bot = RandomBot(b"att-bot")
    while not state.attempts and not GAME.is_over(state):
        seat, command = bot.next_move(GAME, state)
        state, _ = engine.execute(GAME, state, seat, command, chance)
    listed = [a for p in GAME.view(state, None)["provinces"] for a in p["attempts"]]
    assert len(listed) == len(state.attempts) > 0
