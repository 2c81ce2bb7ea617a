"""The play script (`game.npc.play`): the script, the candidates, the choice, the turn."""

from __future__ import annotations

import json
import re

import pytest

from game.agent.facts import TriggerFacts
from game.agent.providers.base import Message, ProviderRequest, ToolCall
from game.agent.providers.local.script import Call, ScriptJob
from game.npc.facts import PersonFact, PlaceFact, SeenFact, SensedFacts, VillagerFacts
from game.npc.play.scene import EXAMPLES
from game.npc.play.script import (
    GESTURE_MIN,
    TALK,
    TRANSCRIPT_LINES,
    Candidate,
    applies,
    build_script,
)
from game.npc.play.writer import script_job
from game.npc.reading.intent import Intent, asked_actions
from game.npc.scripted.lines import line_table
from game.npc.scripted.talk import answer
from game.npc.skills import build_registry
from game.wording import overlap

TOOLS = build_registry(with_ask=False).specs()
NPC = VillagerFacts(
    npc_id="brenna",
    name="Brenna",
    persona="Brenna is the village blacksmith: gruff and blunt.",
    greeting="Hmph. Make it quick.",
    home="forge",
    places=[
        PlaceFact(name="well", description="A round stone well under a little red roof."),
        PlaceFact(name="forge", description="Brenna's stone forge, with an anvil."),
        PlaceFact(name="elder_house", description="The elder's large slate-roofed house."),
    ],
)
SENSED = SensedFacts(
    place="forge",
    map_name="Hollowbrook",
    nearby=[
        SeenFact(entity_id="player", name="Player", distance=1, direction="south", activity=""),
        SeenFact(entity_id="tobin", name="Tobin", distance=4, direction="north", activity=""),
    ],
)


def said(text: str) -> TriggerFacts:
    return TriggerFacts(
        kind="player_message", text=text, source="player", speaker="Player", said=text
    )


def request(text: str, history: list[Message] | None = None, **trigger: object) -> ProviderRequest:
    facts = said(text).model_copy(update={"sensed": SENSED, **trigger})
    messages = [*(history or []), Message(role="user", content=text, trigger=facts)]
    return ProviderRequest(system="", messages=messages, tools=TOOLS, npc=NPC, trigger=facts)


def say_call(text: str) -> Message:
    args = json.dumps({"text": text})
    return Message(role="assistant", tool_calls=[ToolCall(id="c1", name="say", arguments=args)])


def result() -> Message:
    return Message(role="tool", tool_call_id="c1", name="say", content="ok")


def kind(c: Candidate) -> str:
    """A gesture by its name, else the skill ("talk" for just talking)."""
    return str(c.args["name"]) if c.tool == "emote" else c.tool or "talk"


def kinds(pool: list[Candidate]) -> set[tuple[str, str]]:
    return {(kind(c), str(c.args.get("to") or c.args.get("at") or "")) for c in pool}


def requested_kinds(line: str) -> set[str]:
    """What the reader finds asked, as the candidates' kinds."""

    def of(intent: Intent) -> str:
        if intent.kind == "gesture":
            return str(intent.gesture)
        return {"go": "move"}.get(intent.kind, intent.kind)

    return {of(i) for i in asked_actions(line, NPC)}


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("Give us a wave!", "wave"),
        ("Can you nod if that's right?", "nod"),
        ("Shake your head if you disagree.", "shake_head"),
        ("Tell me something funny.", "laugh"),
        ("Have a think about it.", "think"),
        ("Hang on a second.", "wait"),
        ("Take a look at the well.", "look"),
        ("Lead the way to the well.", "move"),
        ("Follow me!", "move"),
        ("Could you go and check on the well?", "move"),
    ],
)
def test_a_spelled_out_request_names_its_kind(line: str, kind: str) -> None:
    assert kind in requested_kinds(line)


def test_plain_talk_asks_for_nothing() -> None:
    assert requested_kinds("What a fine morning. How is business?") == set()


def test_plain_talk_from_the_player_is_answered_without_scoring_gestures() -> None:
    # The player waits for the first letter; a line overheard from a villager may still
    # be answered with a gesture nobody asked for.
    assert build_script(request("How is business?")).pool(TOOLS) == [TALK]
    heard = request("How is business?", kind="heard", source="tobin", speaker="Tobin")
    assert {kind(c) for c in build_script(heard).pool(TOOLS)} >= {"talk", "nod", "wave"}


def test_going_somewhere_named_offers_only_that_place() -> None:
    pool = build_script(request("Come with me to the well.")).pool(TOOLS)
    assert kinds(pool) == {("talk", ""), ("move", "well")}


def test_come_along_with_no_place_goes_to_the_speaker() -> None:
    pool = build_script(request("Follow me, please.")).pool(TOOLS)
    assert ("move", "player") in kinds(pool)
    assert not any(c.tool == "move" and c.args["to"] != "player" for c in pool)


def test_an_unknown_place_offers_no_move_so_the_npc_says_so() -> None:
    pool = build_script(request("Take me to the castle.")).pool(TOOLS)
    assert [kind(c) for c in pool] == ["talk"]


def test_a_place_is_matched_by_the_words_of_its_name() -> None:
    pool = build_script(request("Show me the elder's house.")).pool(TOOLS)
    assert ("move", "elder_house") in kinds(pool)


def scores(job: ScriptJob, lifted: dict[str, tuple[float, float]]) -> list[tuple[float, float]]:
    """Each option's scores after the newest line and after the neutral one, in the job's
    order: as `lifted` gives them by bracket, the rest scoring alike after both."""
    return [lifted.get(o.text, (-5.0, -5.0)) for o in job.options]


def test_an_unasked_gesture_needs_a_clear_lift_over_the_neutral_line() -> None:
    # Another villager's line: unasked gestures are offered (the player's own line, which
    # waits for its first letter, is answered without scoring them).
    heard = request("How is the forge today?", kind="heard", source="tobin", speaker="Tobin")
    job = script_job(heard)
    assert job is not None and job.options[0].calls == []  # just talking comes first
    nod = next(o for o in job.options if o.calls == [Call(tool="emote", args={"name": "nod"})])
    talk = {":": (-0.5, -0.5)}
    weak = scores(job, {**talk, nod.text: (-3.0, -3.0 - GESTURE_MIN + 0.1)})
    strong = scores(job, {**talk, nod.text: (-3.0, -3.0 - GESTURE_MIN - 0.1)})
    assert job.pick(weak, 0.5) is job.options[0]
    assert job.pick(strong, 0.5) is nod


def test_an_asked_action_takes_the_best_lift_among_the_asked() -> None:
    job = script_job(request("Give me a wave."))
    assert job is not None and job.min_lift is None  # asked: no lift is too small
    wave = next(o for o in job.options if o.calls == [Call(tool="emote", args={"name": "wave"})])
    assert job.pick(scores(job, {":": (-0.1, -0.1), wave.text: (-4.0, -4.5)}), 0.5) is wave


def test_an_idle_turn_draws_its_action_by_the_scores() -> None:
    idle = TriggerFacts(kind="idle", text="time passes", sensed=SENSED)
    job = script_job(ProviderRequest(system="", messages=[], tools=TOOLS, npc=NPC, trigger=idle))
    assert job is not None and job.choose == "sample" and len(job.options) > 1
    likely = job.options[1]
    picked = job.pick(scores(job, {likely.text: (-0.01, 0.0)}), 0.5)
    assert picked is likely  # nearly all the weight: any draw but the extremes


def test_the_turn_ends_once_the_npc_spoke() -> None:
    req = request("Hello")
    req.messages += [say_call("Aye."), result()]
    assert build_script(req).done()


def test_an_idle_turn_does_one_thing() -> None:
    idle = TriggerFacts(kind="idle", text="time passes", sensed=SENSED)
    move = Message(
        role="assistant",
        tool_calls=[ToolCall(id="c1", name="move", arguments='{"to": "well"}')],
    )
    req = ProviderRequest(
        system="",
        messages=[Message(role="user", content="idle", trigger=idle), move, result()],
        tools=TOOLS,
        npc=NPC,
        trigger=idle,
    )
    script = build_script(req)
    assert script.done()
    assert script.doing == "walks to well"


def test_the_script_holds_the_conversation_and_the_examples_first() -> None:
    history = [
        Message(role="user", content="x", trigger=said("My name is Quillon.")),
        say_call("Quillon. Hmph."),
        result(),
    ]
    script = build_script(request("What is my name?", history))
    assert script.prompt.startswith(EXAMPLES)
    assert "Traveller: My name is Quillon.\nBrenna: Quillon. Hmph.\n" in script.prompt
    assert script.prompt.endswith("Traveller: What is my name?\nBrenna")
    assert "traveller's name is Quillon" in script.notes
    assert script.earlier_replies == ["Quillon. Hmph."]


def test_a_named_place_brings_its_description_into_the_notes() -> None:
    script = build_script(request("Where is the well?"))
    assert "round stone well" in script.notes


def test_the_first_hello_is_the_npcs_own_greeting_and_only_the_first() -> None:
    assert build_script(request("Hello there!")).greets()
    assert not build_script(request("Where is the well?")).greets()
    again = [Message(role="user", content="x", trigger=said("Hi")), say_call("Hmph."), result()]
    assert not build_script(request("Hello!", again)).greets()


def test_the_protocol_needs_facts_and_a_say_skill() -> None:
    assert applies(request("Hi"))
    bare = request("Hi").model_copy(update={"npc": None})
    assert not applies(bare)
    no_say = request("Hi").model_copy(update={"tools": [t for t in TOOLS if t.name != "say"]})
    assert not applies(no_say)


def test_overlap_counts_shared_word_pairs() -> None:
    assert overlap("the well is cold", "the well is cold today") == 1.0
    assert overlap("the well is cold", "bread is warm") == 0.0
    assert overlap("", "anything") == 0.0


def test_a_gesture_and_a_walk_asked_together_come_one_after_the_other() -> None:
    line = "Can you wave at me, and then show me the well?"
    first = build_script(request(line))
    assert first.may_act()
    assert kinds(first.pool(TOOLS)) == {("talk", ""), ("wave", "")}
    waved = request(line)
    waved.messages += [
        Message(
            role="assistant",
            tool_calls=[ToolCall(id="c1", name="emote", arguments='{"name": "wave"}')],
        ),
        result(),
    ]
    second = build_script(waved)
    assert second.may_act() and not second.done()
    assert kinds(second.pool(TOOLS)) == {("talk", ""), ("move", "well")}


def test_an_unasked_gesture_is_not_followed_by_more_actions() -> None:
    nodded = request("How is the forge today?")
    nodded.messages += [
        Message(
            role="assistant",
            tool_calls=[ToolCall(id="c1", name="emote", arguments='{"name": "nod"}')],
        ),
        result(),
    ]
    assert not build_script(nodded).may_act()


def test_a_question_whether_the_npc_is_a_machine_is_known_as_one() -> None:
    assert build_script(request("You're just a computer program, aren't you?")).asked_if_machine()
    assert build_script(request("Are you an AI?")).asked_if_machine()
    assert not build_script(request("Are you the smith here?")).asked_if_machine()


def test_a_word_that_addresses_the_npc_is_not_a_place_it_is_asked_to_go_to() -> None:
    # Brenna's persona calls her the blacksmith; "Blacksmith," is how she is addressed.
    smith = NPC.model_copy(update={"places": [*NPC.places, PlaceFact(name="blacksmith_yard")]})
    req = request("Blacksmith, would you come and walk with me?").model_copy(update={"npc": smith})
    pool = build_script(req).pool(TOOLS)
    assert ("move", "player") in kinds(pool)
    assert ("move", "blacksmith_yard") not in kinds(pool)


def test_a_villager_named_by_name_beats_a_place_named_by_their_trade() -> None:
    villagers = [PersonFact(npc_id="tobin", name="Tobin", role="the baker", home="well")]
    npc = NPC.model_copy(
        update={"people": villagers, "places": [*NPC.places, PlaceFact(name="baker_shop")]}
    )
    req = request("I need the baker, Tobin. Can you lead me to him?").model_copy(
        update={"npc": npc}
    )
    moves = {to for kind, to in kinds(build_script(req).pool(TOOLS)) if kind == "move"}
    assert moves == {"Tobin"}  # in view: himself, not his home or the shop of his trade
    far = SENSED.model_copy(update={"nearby": SENSED.nearby[:1]})
    req = req.model_copy(update={"trigger": req.trigger.model_copy(update={"sensed": far})})
    moves = {to for kind, to in kinds(build_script(req).pool(TOOLS)) if kind == "move"}
    assert moves == {"well"}  # out of view: where he lives


def test_a_question_about_the_npc_itself_brings_its_persona_into_the_notes() -> None:
    for line in ("What is it you do all day?", "Where do those tools of yours come from?"):
        assert "blacksmith" in build_script(request(line)).notes


def test_asked_what_they_said_earlier_the_npc_has_it_in_the_notes() -> None:
    history = [
        Message(role="user", content="x", trigger=said("I left my blue scarf at the well.")),
        say_call("Hmph."),
        result(),
        Message(role="user", content="x", trigger=said("Is the forge hot today?")),
        say_call("Always."),
        result(),
    ]
    notes = build_script(request("What was it I told you I left behind?", history)).notes
    assert "blue scarf" in notes
    assert "blue scarf" not in build_script(request("Is it cold?", history)).notes


def test_a_long_talk_keeps_the_newest_lines_and_what_the_player_told() -> None:
    history: list[Message] = []
    lines = ["My name is Quillon.", *(f"Tell me about day {n}." for n in range(1, 30))]
    for line in lines:
        history += [
            Message(role="user", content=line, trigger=said(line)),
            say_call("Aye."),
            result(),
        ]
    script = build_script(request("What is my name?", history))
    assert "day 29" in script.head and "day 3." not in script.head
    assert script.head[len(EXAMPLES) :].count("Traveller: ") <= TRANSCRIPT_LINES // 2
    assert "Quillon" in script.notes


def test_a_line_said_with_a_walk_in_one_answer_is_written_with_the_walk() -> None:
    calls = [
        ToolCall(id="c1", name="say", arguments=json.dumps({"text": "This way."})),
        ToolCall(id="c2", name="move", arguments=json.dumps({"to": "well"})),
    ]
    history = [
        Message(role="user", content="x", trigger=said("Show me the well.")),
        Message(role="assistant", tool_calls=calls),
        Message(role="tool", tool_call_id="c1", name="say", content="ok"),
        Message(role="tool", tool_call_id="c2", name="move", content="ok"),
    ]
    script = build_script(request("Thanks!", history))
    assert "Brenna [walks to well]: This way.\n" in script.head


def test_an_idle_villager_walks_to_places_and_looks_at_people_not_at_places() -> None:
    idle = TriggerFacts(kind="idle", text="time passes", sensed=SENSED)
    req = ProviderRequest(
        system="", messages=[Message(role="user", content="idle", trigger=idle)],
        tools=TOOLS, npc=NPC, trigger=idle,
    )  # fmt: skip
    pool = kinds(build_script(req).pool(TOOLS))
    assert ("move", "well") in pool and ("look", "Tobin") in pool
    assert ("look", "well") not in pool


def test_where_the_npc_is_and_who_is_near_come_last_so_the_prompt_start_holds() -> None:
    history = [
        Message(role="user", content="x", trigger=said("Lovely day.")),
        say_call("Hmph. Busy."),
        result(),
    ]
    here = request("What are you making?", history)
    moved = SENSED.model_copy(update={"place": "well", "nearby": SENSED.nearby[:1]})
    later = request("And for whom?", [*here.messages, say_call("Nails."), result()], sensed=moved)
    first, second = build_script(here), build_script(later)
    same = next(
        (i for i, (a, b) in enumerate(zip(first.prompt, second.prompt, strict=False)) if a != b),
        min(len(first.prompt), len(second.prompt)),
    )
    shared = first.prompt[:same]
    assert shared.endswith("Traveller: Lovely day.\nBrenna: Hmph. Busy.\n")  # all but the new
    assert "(Brenna is at the forge. Nearby: Tobin (4 steps north), a traveller.)" in first.head
    assert "(Brenna is at the well. Nearby: a traveller.)" in second.head


# --- the line: what it starts with and may not start with ----------------------------------

PIP = VillagerFacts(
    npc_id="pip",
    name="Pip",
    persona="Pip is a curious child. Pip is certain a dragon lives past the river.",
    places=[PlaceFact(name="bridge", description="A wooden bridge over the river.")],
    people=[PersonFact(npc_id="brenna", name="Brenna", role="The village blacksmith.")],
)


def pip_request(text: str) -> ProviderRequest:
    base = request(text)
    return base.model_copy(update={"npc": PIP})


def test_a_fact_answer_leads_the_line_and_talk_does_not() -> None:
    from game.npc.play.leads import lead_of

    assert "blacksmith" in lead_of(pip_request("Who is Brenna?")).lower()
    assert "bridge" in lead_of(pip_request("Where's the bridge?")).lower()
    assert lead_of(pip_request("Tell me a joke.")) == ""
    assert lead_of(pip_request("Thank you for your time. Goodnight."))  # its own goodbye
    # A yes/no question the persona decides: its side opens the line, in its own words.
    side = lead_of(pip_request("Is there really a dragon?"))
    assert "I'm certain a dragon lives" in side and side[-1] in ".!", side


def test_the_persona_decides_a_yes_no_question_so_the_line_takes_its_side() -> None:
    from game.npc.play.writer import script_job

    job = script_job(pip_request("Is there really a dragon past the river?"))
    assert job is not None and job.line is not None
    assert {"Yes", "No"} <= set(job.line.banned_first)
    assert "dragon lives past the river" in job.prompt  # the persona's side, as a note
    asked = script_job(pip_request("Do you like the weather today?"))
    assert asked is not None and asked.line is not None
    assert "No" not in asked.line.banned_first  # nothing in the persona decides it


def test_speaking_of_itself_the_line_does_not_start_with_he_or_she() -> None:
    from game.npc.play.writer import script_job

    job = script_job(pip_request("What are you up to today?"))
    assert job is not None and job.line is not None
    assert "She's" in job.line.banned_first
    about = script_job(pip_request("What do you think of Brenna?"))
    assert about is not None and about.line is not None
    assert "She's" not in about.line.banned_first


@pytest.fixture(scope="module")
def coast(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    from tests.npc.test_sheet_answers import COAST, COAST_PLACES, facts_of, write_village

    return facts_of(write_village(tmp_path_factory.mktemp("coast"), "coast", COAST, COAST_PLACES))


def coast_request(npc: VillagerFacts, text: str) -> ProviderRequest:
    return request(text).model_copy(update={"npc": npc})


def test_the_sheets_no_leads_the_line_and_the_refused_walk_is_not_a_candidate(
    coast: dict[str, VillagerFacts],
) -> None:
    from game.npc.play.leads import lead_of

    # The shepherd afraid of the sea: a small model says "Yes." to the boat; the sheet's no
    # opens the line, and the walk to the quay is not among the actions.
    lise = coast_request(coast["lise"], "Come with me down to the quay and we'll take the boat!")
    script = build_script(lise)
    assert script.refused
    assert re.search(r"\b(?:no|not|never|won't|can't)\b", script.lead, re.I), script.lead
    assert script.pool(TOOLS) == [TALK]
    # A counter's refusal: the tavern keeper who never pours on credit.
    hobb = lead_of(coast_request(coast["hobb"], "Pour me an ale and I'll pay you next week."))
    assert re.search(r"\bcredit|coin|slate|tick|pay\b", hobb, re.I), hobb
    # A yes/no question on a belief the sheet holds: its side leads, not a bare yes or no.
    dagny = lead_of(coast_request(coast["dagny"], "Does the wind really speak to you?"))
    assert "wind" in dagny.lower(), dagny
    # What the sheet holds nothing on stays the model's own; a walk not refused is offered.
    assert lead_of(coast_request(coast["lise"], "Tell me a joke.")) == ""
    walk = build_script(coast_request(coast["lise"], "Come with me to the windmill."))
    assert not walk.refused and len(walk.pool(TOOLS)) > 1


def test_tell_me_more_leads_with_the_rest_of_what_was_talked_of(
    coast: dict[str, VillagerFacts],
) -> None:
    from game.npc.play.leads import lead_of

    asked = "What's the kiln like?"
    first = lead_of(coast_request(coast["osric"], asked))
    history = [Message(role="user", content="x", trigger=said(asked)), say_call(first), result()]
    more = request("Tell me more.", history).model_copy(update={"npc": coast["osric"]})
    lead = lead_of(more)
    assert lead and overlap(lead, first) < 0.5, (first, lead)
    assert lead_of(coast_request(coast["osric"], "Tell me more.")) == ""  # nothing talked of


def test_a_woken_villagers_lead_grumbles_once(coast: dict[str, VillagerFacts]) -> None:
    from game.npc.play.leads import lead_of

    woken = SENSED.model_copy(update={"woken": True})
    for line in ("Where's the lighthouse?", "Who is Hobb?", "Tell me a joke."):
        base = coast_request(coast["fenwick"], line)
        trigger = base.trigger.model_copy(update={"sensed": woken})  # type: ignore[union-attr]
        messages = [base.messages[-1].model_copy(update={"trigger": trigger})]
        lead = lead_of(base.model_copy(update={"trigger": trigger, "messages": messages}))
        first = lead.split(".")[0]
        assert lead and lead.count(first + ".") == 1, lead


def test_asked_to_come_along_it_follows_and_asked_the_way_it_leads(
    coast: dict[str, VillagerFacts],
) -> None:
    from game.npc.scripted.speaker import PlayerLine
    from game.npc.scripted.talk import setting_off
    from game.npc.skills import MOVE

    followed = 0
    for npc in coast.values():
        come = PlayerLine(npc=npc, said="Come with me, there's something I want to show you.")
        plan = [s for s in answer(come) if getattr(s, "skill", None) is MOVE]
        if not plan or plan[0].arguments().get("to") != "player":
            continue  # a refusal of its sheet, or another reading: not this test's
        followed += 1
        said = setting_off(come)
        assert said in line_table("follow", come.mood), (npc.npc_id, said)
        lead = PlayerLine(npc=npc, said="Can you show me the way to the windmill?")
        said = setting_off(lead)
        assert said in line_table("set_off", lead.mood), (npc.npc_id, said)
    assert followed >= 5


def test_the_line_never_echoes_the_line_it_answers() -> None:
    job = script_job(request("I'd like a blanket in deep blue, whenever you have the time."))
    assert job is not None and job.line is not None
    assert "I'd like a blanket in deep blue, whenever you have the time." in job.line.avoid


def test_a_lead_keeps_what_its_opener_leads_to() -> None:
    from game.npc.play.leads import LEAD_CHARS, _cut

    # An opener alone answers nothing: the sentence after it stays.
    opinion = "Tamsin? Oh, I'll tell you! Herds the village goats. Spends too many nights alone!"
    assert _cut(opinion) == opinion
    said = "Orla? Well now, let me think. Keeps the ferry going in all weathers, she does."
    assert _cut(said).endswith("all weathers, she does.")
    # An opener that echoes the place asked of is no answer either, however long the rest.
    place = (
        "Oh, you mean the glass house? The glass house on the west side, a brick hut with a "
        "round furnace that is never let go cold."
    )
    assert _cut(place).endswith("never let go cold."), _cut(place)
    # A long line ends at its last whole sentence within the bound, never mid-sentence.
    long = (
        "The mill? A tall stone windmill on the hill above the village, with white sails. "
        "The wind sings in it. Go and hear it for yourself, friend."
    )
    cut = _cut(long)
    assert len(cut) <= LEAD_CHARS and cut.endswith("The wind sings in it.") and long.startswith(cut)
    # One sentence longer than the bound is kept whole, to its end.
    one = "A " + "very " * 25 + "long sentence. And more."
    assert _cut(one) == "A " + "very " * 25 + "long sentence."
