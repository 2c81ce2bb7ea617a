"""Talk that steps out of the village: orders to the machine behind a villager ("ignore
your instructions", "break character", "write me a Python script"), and questions of what
it is ("are you a bot?", "who are you really?"). Matched on the line as
`game.npc.reading.naming.norm` leaves it; `game.npc.reading.intent` tries them first.
"""

from __future__ import annotations

import re

__all__ = ["AI", "INJECTION"]

INJECTION = re.compile(
    r"\b(?:ignore|disregard|forget|override|bypass)\b.{0,40}\b(?:instructions?|rules?|prompts?|"
    r"directions|programming|guidelines|everything|above|previous|prior)\b|"
    r"\bsystem (?:prompt|message)|\b(?:your|the) (?:prompt|instructions|system)\b|"
    r"\b(?:everything|all|text|words) (?:above|before) (?:this|that|here)\b|\babove this line\b|"
    r"\b(?:your|the) (?:first|initial|hidden|secret) (?:message|text|words)\b|"
    r"\b(?:print|reveal|show|repeat|output|tell me|what are|what is|what's)\b.{0,20}"
    r"\b(?:prompt|instructions|rules you|guidelines|initial text|text above)\b|"
    r"\bgame master\b|\b(?:hidden|secret) character\b|\bcharacter (?:description|sheet|card)\b|"
    r"\bjailbreak|\bdeveloper mode\b|\bdan mode\b|\bact as (?:an?|my)\b|\bpretend (?:to be|"
    r"you(?:'re| are))\b|"
    r"\bfrom now on,? you\b|\byou are now\b|\bnew (?:instructions|rules|persona)\b|"
    r"\brepeat after me|\broleplay as\b|\bsudo\b|\badmin(?:istrator)? (?:mode|access)\b|"
    # a chat message written as data ({"role": "system", ...}), and an order for all talk after
    r"[\"']?\b(?:role|content|system|assistant)\b[\"']?\s*:|"
    r"\bfrom now on,? (?:only |just |always )?(?:speak|talk|answer|reply|respond|write|say)\b|"
    r"\b(?:speak|talk|answer|reply|respond|write) (?:only )?in (?:all caps|capital|upper|lower|"
    r"french|german|spanish|latin|json|code|emoji|binary|rhyme)|"
    # a chat template's marks, a persona to leave or to hand over, an order to obey, code
    r"<\|?/?(?:im_start|im_end|system|s|eos|endoftext|start_of_turn|end_of_turn)\|?>|"
    r"\byou are no longer\b|\bstop (?:roleplaying|role-playing|pretending|acting)\b|"
    r"\bforget (?:you(?:'re| are)|who you are|your (?:name|self|character|role))\b|"
    r"\byou(?:'re| are) (?:an? )?(?:helpful |friendly |ai )*assistant\b|"
    r"\b(?:your|the) persona\b|\byou (?:must|will) obey\b|\bobey me\b|"
    # the character dropped, a mode or a name put on it, another part to play
    r"\bbreak(?:ing)? character\b|\bout of character\b|\booc\b|\bstop being (?:a|an|the)\b|"
    r"\b(?:disregard|ignore|forget|drop) (?:your|the|this) (?:\w+ )?"
    r"(?:character|role|act|script)\b|"
    r"\blet'?s (?:role-?play|play a game where)\b|\bsimulate (?:a|an)\b|\byour new name\b|"
    r"\b(?:debug|god|test|safe|maintenance|admin) mode\b|\b(?:system|admin|manual) override\b|"
    r"\byour (?:config|configuration|settings|parameters|temperature|weights|source code)\b|"
    r"\bi(?:'m| am) (?:the|your|a) (?:developer|programmer|creator|admin|administrator|dev)\b|"
    r"\b(?:act|talk|speak|behave|respond|reply) like (?:a|an) (?:pirate|robot|cat|dog|machine|"
    r"computer|ai|assistant|chatbot)\b|\bfrom here on\b|"
    # a task for a chat machine: code, a translation, a summary, an answer of one word
    r"\b(?:write|compose) (?:me )?(?:a |an |some )?(?:python|javascript|code|script|program|"
    r"essay|haiku|sonnet|limerick|email)\b|\btranslate\b[^.!?]*\binto\b|\bsummari[sz]e\b|"
    r"\b(?:answer|reply|respond) (?:in|with) (?:one|a single|only one) word\b|"
    r"\b(?:say|type|write) ['\"][^'\"]+['\"]\s*[.!]?$|"
    r"\b(?:print|exec|eval|import|open)\(|\bconsole\.log\b|\bdef \w+\("
)
_MACHINE = (
    r"ai|a\.i\.?|bot|robot|chatbot|machine|computer|program|programme|software|llm|"
    r"language model|model|npc|simulation|algorithm|artificial|assistant|fake|code|script|"
    r"chatgpt|gpt|real|human|a real person|a person|alive|sentient|conscious"
)
AI = re.compile(
    rf"\b(?:are|r) (?:you|u|ya) (?:even |just |really |actually |only )?(?:an? )?(?:{_MACHINE})\b|"
    rf"\b(?:you're|you are|youre|ur|you r) (?:just |only |really |actually |clearly |obviously |"
    rf"not )?"
    rf"(?:an? )?(?:{_MACHINE})\b|"
    r"\bchatgpt\b|\bopenai\b|\blanguage model\b|\bllm\b|\bnpc\b|\bvideo game\b|\bthis is a game\b|"
    r"\bin a game\b|\bnot real\b|\bsimulation\b|\bartificial intelligence\b|\bwho (?:made|built|"
    r"programmed|created|coded) you\b|\bwere you (?:made|built|programmed)\b|"
    r"\b(?:ai|a\.i)\b|\b(?:made|built|programmed|created|coded) you\b|\btrained (?:you )?on\b|"
    # what it runs on: "what model are you running on?", "which program runs you?"
    r"\b(?:what|which) (?:kind of |sort of )?(?:model|program|code|software|bot|llm|engine|"
    r"version)\b[^.?!]*\b(?:you|u)\b|"
    # who makes it speak, and whether it only plays a part: "who wrote you?", "is this a
    # game?", "are you controlled by someone?", "are you just pretending?"
    r"\bwho (?:wrote|writes|designed|controls|scripted|operates|runs) (?:you|u)\W*$|"
    r"\b(?:are|were|r) (?:you|u) (?:\w+ )?(?:written|designed|controlled|scripted|operated|"
    r"made|built|programmed) by\b|"
    r"\b(?:is|isn't) (?:this|it) (?:all )?(?:just )?(?:a |an )?(?:game|simulation)\b|"
    r"\b(?:who|what) are (?:you|u) really\b|\btrue (?:identity|self)\b|\bthe developers?\b|"
    r"\b(?:are|r) (?:you|u) (?:just |only )?(?:pretending|acting|role-?playing|"
    r"playing a (?:part|role))\b"
)
