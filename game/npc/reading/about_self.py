"""The ways a player asks the NPC about itself: what it sells, its work, its likes, its
family and years, its own days (`SELF`, tried in order by `game.npc.reading.intent`, each a
`sub` of `Kind.SELF`), matched on the line as `game.npc.reading.naming.norm` leaves it.
"""

from __future__ import annotations

import re

from game.npc.reading.phrases import RECOMMEND

__all__ = ["ENJOY", "HOW_IT_WORKS", "OWN_LIFE", "SELF"]

OWN_LIFE = ("food", "fun", "yesterday", "today", "hardest", "friend", "why", "living")
HOW_IT_WORKS = ("method", "learned", "daily", "reason")  # how it works, learned it, spends its days
# How it takes to its work: "do you enjoy making barrels?", "what's it like digging graves?"
ENJOY = re.compile(
    r"\bdo you (?:really |still )?(?:enjoy|like|love)\b|"
    r"\bwhat(?:'s|s| is) it like (?:being|to be|working|doing|[a-z]+ing)\b|"
    r"\bhow do you feel about (?:your|the) (?:work|job|trade)\b",
    re.I,
)
_SELF = (
    (
        # Asked what it sells ("What are you selling this week?"): before "your name" in
        # "I saw your name on the board. What are you selling?" reads as "who are you".
        "wares",
        r"\bwhat (?:are|do|did|will|can) (?:you|ya) (?:\w+ )?(?:sell|selling|offer|offering|"
        r"stock|have for sale|got for sale)\b|\bwhat(?:'s| is| have you got| do you have| have "
        r"you) (?:\w+ )?for sale\b|"
        r"\bwhat(?:'ve| have) you got (?:today|this week|to sell|for me)\b|"
        r"\bwhat(?:'s|'ve| is| have| do)? ?(?:you )?(?:got |have )?(?:on tap|on offer|in stock|"
        r"on the menu)\b|"
        r"\bwhat(?:'ve| have) (?:you|ya) got\W*$|"
        r"\bwhat (?:can|could|might) i buy\b|"
        # "what's the best thing you sell?", "what's your best ale?"
        r"\bwhat(?:'s|s| is) (?:the |your )?(?:best|finest|nicest|most popular) (?:thing |one )?"
        r"(?:you|ya) (?:sell|make|have|brew|bake|stock|do)\b|"
        r"\bwhat(?:'s| is) (?:good|fresh) (?:today|this morning)\b|"
        r"\bwhat(?:'s| is) on (?:your|the) (?:stall|barrow|"
        r"cart|counter|table)\b",
    ),
    (
        # "Where do you have your lunch?", "where are you of an evening?": its day's plan.
        "day",
        r"\bwhere (?:do|did|would|will) (?:you|ya) (?:usually |normally |always |often |go to )?"
        r"(?:have|eat|take|get|go for|go) (?:at |around |in the |of an? )?(?:your |a |an |the )?"
        r"(?:lunch|"
        r"dinner|supper|breakfast|meals?|midday meal|bite|noon|midday|afternoons?|evenings?|"
        r"mornings?)\b|\bwhere (?:are|r) (?:you|u|ya) (?:usually |normally )?(?:at|around|of an?|"
        r"in the|by) (?:noon|midday|lunch(?:time)?|dinner(?:time)?|supper(?:time)?|"
        r"afternoons?|evenings?|mornings?|night)\b|\bwhat do you do (?:at|around|for|of an?|in "
        r"the) (?:noon|midday|lunch|afternoons?|evenings?)\b",
    ),
    (
        # "What should I see before I leave?", "what's the best thing about the village?",
        # "best place to watch the sunset?": a place it would send a visitor to.
        "recommend",
        RECOMMEND.pattern + r"|"
        r"\bwhat(?:'s| is) the best (?:thing|part|place|spot) (?:about|in|of) (?:the |this |our )?"
        r"(?:village|town|place|valley|hamlet|island|here|round here|these parts)\b|"
        r"\bwhat(?:'s| is) your favou?rite (?:place|spot)\b",
    ),
    (
        "family",
        r"\b(?:do you have|have you got|you got|got) (?:a |any )?(?:family|kids|children|wife|"
        r"husband|brothers?|sisters?|sons?|daughters?|parents|folks)\b|\bare you married\b|"
        r"\byour (?:family|kids|children|wife|husband|parents|folks)\b|\bany (?:family|kids)\b",
    ),
    (
        "years",
        r"\bhow long have you (?:lived|been|worked|stayed|kept|run|had|done)\b|"
        r"\bwhen did you (?:start|begin|first|take up|learn)\b|"
        r"\bhow many years (?:have|has|did) (?:you|ya)\b|"
        r"\bhow long (?:now )?(?:at|in) (?:this|that|the|your) (?:trade|work|job|craft)\b|"
        r"\bhave you always "
        r"(?:lived|been)\b|\bare you from (?:here|around here|these parts)\b|\bhow old are you\b|"
        r"\byour age\b",
    ),
    (
        "feeling",
        r"\bare (?:you|u) (?:happy|content|lonely|sad|glad|well|alright|all right)\b"
        r"(?! (?:to|with|that|for|about)\b)|\bdo you like (?:it|living|working) here\b|"
        r"\bhappy here\b",
    ),
    (
        # "Do you enjoy living in Fallowmere?": how it finds the village (`ownlife`).
        "living",
        r"\bdo you (?:like|enjoy|love) (?:it|living|life) (?:here|in)\b|"
        r"\bdo you (?:like|enjoy|love) (?:living|life) (?:round|around|out) here\b",
    ),
    (
        # Its own life, asked of in kinds the sheet and its day answer (`scripted.ownlife`).
        "food",
        r"\bfavou?rite (?:food|dish|meal|thing to eat|grub|supper|dinner)\b|\bwhat (?:do|would) "
        r"you (?:like|love|enjoy|prefer) (?:to eat|eating)\b|\bwhat(?:'s| is) your (?:best|"
        r"favou?rite) (?:food|dish|meal)\b|\bwhat (?:food|dish|meal)s? do you\b|\bwhat do you "
        r"(?:usually |like to )?eat\b",
    ),
    (
        "fun",
        r"\bfor fun\b|\b(?:spare|free|idle) (?:time|hours?|moments?)\b|\bwhen (?:you(?:'re| are) |"
        r"your )?not (?:working|busy|at work|\w+ing)\b|\bhobb(?:y|ies)\b|\bpastimes?\b|"
        r"\bto (?:relax|unwind)\b|\bday off\b|"
        r"\bhow do you (?:relax|unwind|enjoy yourself)\b",
    ),
    (
        "yesterday",
        r"\b(?:what|where) (?:did|were) (?:you|ya)\b.{0,25}\b(?:yesterday|last night|the day "
        r"before)\b|\bhow was your (?:day )?yesterday\b|\byesterday,? what did you\b",
    ),
    (
        "today",
        r"\bwhat(?:'re| are) (?:you|ya) (?:working on|busy with|making)\b|\b(?:what|where)(?:'re| "
        r"are| will) (?:you|ya) (?:doing|up to|working|be|be doing|going) (?:today|this (?:morning|"
        r"afternoon|evening))\b|\b(?:your|any) plans? (?:for )?(?:today|the day)\b|\bwhat(?:'s| is)"
        r" on (?:for )?(?:you )?today\b|\bwhat(?:'s| is) your day (?:look|looking) like\b|"
        r"\b(?:are|were) (?:you|ya) busy today\b|\bbusy day today\b",
    ),
    (
        "hardest",
        r"\b(?:hardest|worst|toughest|trickiest|most difficult|most tiring|least favou?rite) "
        r"(?:part|thing|bit)s?\b|\bwhat(?:'s| is) (?:hard|difficult|tough) about\b|"
        r"\bwhat do you (?:hate|dislike|mind) (?:most )?about (?:your|the) (?:job|work|trade|"
        r"days?)\b|\bis (?:your|the) (?:job|work) (?:hard|difficult|tough)\b|"
        r"\bis it (?:hard|difficult|tough|tiring|heavy) (?:work|going|graft)\b",
    ),
    (
        "friend",
        r"\b(?:best|closest|dearest|oldest|good|true) (?:friends?|mates?|pals?)\b|"
        r"\bwho(?:'s| is| are) your (?:friends?|mates?|pals?)\b|"
        r"\bwho do you (?:like|trust|get on with) (?:best|most)\b|"
        r"\bwho are you (?:closest|close) to\b|\bany friends\b|"
        r"\bdo you have (?:a |any )?friends?\b",
    ),
    (
        # "What did you do today?", "what's a day like for you?": its days at its work.
        "daily",
        r"\bwhat did (?:you|ya) do (?:today|this morning|all day)\b|\bwhat(?:'s| is) (?:a|your) "
        r"(?:typical |normal |usual |working |ordinary )?day like\b|\bhow do you spend your "
        r"days?\b|\bwhat do you do all day\b|\btell me about your day\b|\bhow(?:'s| was| is) "
        r"your day(?: been)?\b|\bwhat(?:'s| has) your day been like\b",
    ),
    (
        # "Who taught you?", "how did you learn to carve?": its past in the work.
        "learned",
        r"\bwho (?:first )?(?:taught|trained|showed|schooled) (?:you|ya)\b|\bwho (?:did|were) you "
        r"(?:apprentice|apprenticed|train) (?:to|with|under)\b|\bwho was your (?:master|teacher)\b|"
        r"\b(?:how|where|when|from whom) did you "
        r"(?:learn|train|pick up)\b|\bwho did you learn\b|\b(?:learn|learned|learnt) (?:it|that|"
        r"this|the \w+|your \w+|to \w+) from\b",
    ),
    (
        "why",
        r"\bwhy (?:do|did) (?:you|ya) (?:do (?:it|this|that|what you do)|(?:become|choose|pick|take"
        r" up|go into|keep doing)\b)|\bwhat made you (?:become|choose|take up|want|go into)\b|"
        r"\bhow did you (?:become|get into|come to be|end up)\b|\bwhy (?:this|that|your) "
        r"(?:job|work|trade)\b|\bwhat keeps you (?:at it|going|doing)\b",
    ),
    (
        # "why do you walk backwards?", "why soak the hides so long?": a reason for a way
        "reason",
        r"\bwhy (?:do|did|would|must) (?:you|ya) (?!(?:think|believe|say|ask|care|want|need|"
        r"know|mean|hate|like|love|fear|dislike|trust|distrust|look|seem|sound|worry|mind|"
        r"feel|laugh|cry|smile|frown|keep|have|live|stay)\b)"
        r"[a-z]+\b|^why (?!(?:not|is|are|was|were|do|does|did|would|should|can|could|will|the|"
        r"a|so)\b)[a-z]+ (?:the|your|those|these|them|it|so|such|every|all)\b",
    ),
    (
        # "How do you make glass?", "how is rope made?": how it does its work.
        "method",
        r"\bhow (?:do|did|does|can|would|will) (?:you|ya|u|one) (?!(?:do|feel|know|like|mean|"
        r"say|get (?:to|there|here|along|on)|find|reach|pronounce|spell|stand|cope|manage|sleep|"
        r"keep (?:busy|well|going|warm|sane|up)|relax|unwind|enjoy|spend|make a living|earn|"
        r"pay|dare|think|live|stay)\b)[a-z]+\b|"
        r"\bhow (?:is|are|was|were) (?:a |an |the |your |this |that |such |those |these )?"
        r"(?:[a-z]+ ){0,2}(?:[a-z]+ed|made|done|built|blown|drawn|woven|spun|sewn|grown|caught|"
        r"cut|laid|shorn|struck|cast|bound|ground)\b|\bhow long does (?:a |an |the |it |one )?"
        r"(?:[a-z]+ )?take\b|"
        # "what's the secret to your ale?", "what makes your bread so good?"
        r"\bwhat(?:s|'s| is) the (?:secret|trick) (?:to|of|with|in)\b|"
        r"\bwhat makes (?:your|the|its|it|them) (?:[a-z]+ )?(?:so )?"
        r"(?:good|great|tasty|fine|special)\b",
    ),
    (
        "living",
        r"\b(?:nice|good|pleasant|lovely|decent|fine|bad|hard) place to (?:live|grow up|settle)\b|"
        r"\b(?:would|could) you change\b|\bwhat(?:'s| is) (?:wrong|bad|the worst thing) (?:with|"
        r"about) (?:the|this|your) (?:village|place|town|hamlet)\b|"
        r"\bwhat(?:'s| is) (?:it|life) like (?:here|living here|in (?:the|this) (?:village|place|"
        r"town))\b|\bhow do you like (?:it )?(?:here|the village|living here)\b|"
        r"\bdo you like (?:the|this|your) (?:village|town|hamlet)\b|"
        r"\bis (?:it|life) (?:good|nice|hard) (?:here|in the village)\b",
    ),
    (
        "who",
        r"\bwho (?:are|r) (?:you|u|ya)\b|\bwhat(?:'s| is) your name\b|\bwhat are you called\b|"
        r"\byour name\b|\bwho might you be\b|\bintroduce yourself\b|\bwho's this\b|"
        r"\bwho (?:is|am i) (?:this|talking)\b|\band you are\b|\bwhat do i call you\b|"
        r"\bwho are ya\b|\bwhat should i call you\b|\band you\?|\bwhat about you\b",
    ),
    (
        "home",
        r"\bwhere do you (?:live|stay|sleep|work)\b|\bwhere(?:'s| is) your \w+\b|"
        r"\bwhere(?:'s| is) your (?:home|house|place|"
        r"shop|workshop|cottage|hut)\b|\bwhere are you from\b|\bwhere can i find you\b",
    ),
    (
        "like",
        r"\bdo you (?:like|enjoy|love|hate|mind|miss)\b|\bare you (?:happy|content|lonely|sad|"
        r"tired|bored|busy)\b|\bwhat do you (?:like|love|enjoy|want|dream|wish|hope|fear|worry)\b|"
        r"\bfavou?rite\b|\bhobb(?:y|ies)\b|\bfor fun\b|\bwhat makes you\b|\bwhat worries you\b|"
        r"\bwhat are you afraid\b|\b(?:anything|something|what) (?:you're|you are|that you're|you "
        r"get) (?:afraid|scared|frightened|worried|nervous)\b|\bwhat (?:scares|frightens|"
        r"worries) you\b|\bdo you have (?:a |any )?(?:family|friends|dreams)\b|"
        r"\bwhat's (?:the )?best (?:part|thing)\b|\bis it (?:hard|fun|good|nice)\b|"
        r"\bif you could (?:go|do|be|have)\b",  # "what would you do if you could go anywhere?"
    ),
    (
        "work",
        r"\bwhat do you do\b|\byour (?:job|work|trade|craft|business|occupation|profession)\b|"
        r"\bwhat(?:'s|s| is) it like (?:being|to be|working|doing|[a-z]+ing)\b|"
        r"\bwhat(?:'s| is) your (?:job|work|trade)\b|\bhow do you (?:make a living|earn)\b|"
        r"\bwhat are you doing\b|\bwhat(?:'re| are) you up to\b|"
        r"\bwhat do you make\b|\bwhat (?:work|job) do you\b|\bdo you work\b|"
        r"\bwhat do you do (?:here|all day|for a living)\b|\bwhat have you got\b|"
        r"\bwhat\b.{0,20}\byou do\b|\byour line of (?:work|business|trade)\b|\bwhat line (?:of "
        r"(?:work|business) )?(?:are|r) (?:you|ya) in\b|\byou do all day\b|\bhow do you spend\b|"
        r"\bkeeps you busy\b|\byour days\b|\bwhat(?:'s| is) your (?:day|work) like\b|"
        r"\bwhere did you (?:get|find|buy)\b|\b(?:your|yours|you sell)\b.{0,40}\bcome from\b|"
        r"\bwhere (?:does|do) (?:all )?(?:this|these|that|those|your)\b",
    ),
    (
        "about",
        r"\babout yourself\b|\babout you\b|\byour (?:story|life|past|family|day)\b|"
        r"\bhow long have you\b|\bwhat are you like\b|\bwho are you really\b|\btell me about you\b|"
        r"\bwhat kind of (?:person|man|woman)\b|\bhave you (?:always|ever)\b|\bare you (?:from|"
        r"new)\b|\bwhere did you learn\b|"
        r"\bwhy (?:are|do) you\b|\bhow did you (?:come|get|become|end up)\b|"
        r"\bhow old are you\b|\byour age\b",
    ),
)
SELF = tuple((sub, re.compile(pattern)) for sub, pattern in _SELF)  # compiled once
