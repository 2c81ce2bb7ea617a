"""The reader's phrases: for each thing a player may say, the ways it is said.

Each pattern is a family of wordings of one intent ("are you a bot?", "you're just a
program"), matched on the line as `game.npc.reading.naming.norm` leaves it (lowercased, straight
quotes). `game.npc.reading.intent` decides in which order they are tried.
"""

from __future__ import annotations

import re

__all__ = [
    "ASK_NAME",
    "BEST_PLACE",
    "BYE",
    "CHATTER",
    "DOING_YOU",
    "FAVOUR",
    "GLAD",
    "GOSSIP",
    "GREETED_WITH",
    "HAVE",
    "HELLO",
    "HOW_ARE_YOU",
    "INVITE",
    "LEADER",
    "LEADER_ASKED",
    "LIKING",
    "OFFWORLD",
    "ORIGIN",
    "OWNER",
    "PERSON_SUB",
    "QUESTION",
    "RECALL",
    "RECOMMEND",
    "SAD",
    "SEEK",
    "SONG",
    "STORY",
    "STORY_AGAIN",
    "TELL_ME_OF",
    "THANKS",
    "TO_BED",
    "UP_WHEN",
    "VILLAGE",
    "WAKE_SORRY",
    "time_asked",
]

OFFWORLD = re.compile(
    r"\bstocks?(?: market| prices?| exchange)?\b(?<!in stock)(?! in\b)|\bshare prices?\b|"
    r"\bcrypto|\bbitcoin|"
    r"\bpython\b|\bjavascript\b|\bprogramming\b|\bcoding\b|\bsoftware\b|\bdatabase\b|"
    r"\bworld cup\b|\bsuper bowl\b|\bolympics\b|\bfifa\b|\bnba\b|\bpremier league\b|"
    r"\bhollywood\b|\bspotify\b|\buber\b|\bnuclear\b|\bdinosaurs?\b|"
    r"\b(?:smart ?|i|cell ?|mobile |tele)?phones?\b|"
    r"\binternet\b|\bwi-?fi\b|\bonline\b|\bwebsites?\b|\be-?mails?\b|\bcomputers?\b|\blaptops?\b|"
    r"\btelevision\b|\btv\b|\bnetflix\b|\byoutube\b|\bgoogle\b|\bfacebook\b|\btwitter\b|"
    r"\binstagram\b|\btiktok\b|\bsocial media\b|\bcars?\b|\bairplanes?\b|\baeroplanes?\b|"
    r"\belectricity\b|\bvideo games?\b|\bmovies?\b|\bcinema\b|\bselfies?\b|\bapps?\b|\bemails?\b|"
    r"\bpresident\b|\belections?\b|\bnew york\b|\blondon\b|\bamerica\b|\bparis\b|\bdollars?\b|"
    r"\beuros?\b|\bnasdaq\b|\bspaceships?\b|\brockets?\b|\bsatellites?\b|\bpizza\b|\bhamburgers?\b|"
    r"\bcoffee shop\b|\bsupermarket\b|\bplaystation\b|\bxbox\b|\bnintendo\b|\bemoji|\bgps\b|"
    r"\btext me\b|\bcharger\b|\bbattery\b|\bbatteries\b|\bwebsite\b|\bpodcasts?\b|\bblockchain\b|"
    r"\bfootball\b|\bsoccer\b|\bbasketball\b|\bbaseball\b|\bbicycles?\b|\bbikes?\b|"
    r"\bmotorbikes?\b|\bbus(?:es)?\b|\blorr(?:y|ies)\b|\btrucks?\b|\bhelicopters?\b|"
    r"\b(?:by|the|a|on the) trains?\b|\btrain stations?\b|\brailways?\b|\bfilms?\b(?! of)|"
    r"\bradio\b|\bcredit cards?\b|\bcash machines?\b|\batms?\b|\baliens?\b|\bufos?\b|"
    r"\brobots?\b|\bfridges?\b|\brefrigerators?\b|\bmicrowaves?\b|\bvaccines?\b|\bplastic\b|"
    r"\bcameras?\b|\bphotos?\b|\bheadphones\b|\bjeans\b|\bsneakers\b|"
    r"\btaxis?\b|\bcabs?\b|\bairports?\b|\bstar wars\b|\bharry potter\b|\btaylor swift\b|"
    r"\bcelebrit(?:y|ies)\b|\bpolice\b"
)
ASK_NAME = re.compile(
    r"\b(?:what(?:'s| is| was) my name|who am i\b|do you (?:remember|know|recall) (?:my name|"
    r"who i am)|"
    r"remember my name|say my name|my name again|what did i say my name|what am i called|"
    r"what do (?:you|people) call me|you know my name|tell me my name|what name did i|"
    r"what i(?:'m| am) called|what (?:you|to) call me|what my name is|my name\b[^.!]*\?)"
)
RECALL = re.compile(
    r"\bwhat (?:did|do|have|had) i (?:just )?(?:say|said|tell|told|mention|mentioned|ask|asked|"
    r"order|ordered)\b|"
    # "What colour did I ask for?", "which size did I want?": a thing of an order or a wish.
    r"\b(?:what|which) \w+ (?:did|have|had) i (?:just )?(?:say|tell you|mention|ask|asked|order|"
    r"ordered|want|wanted|choose|chose|pick|picked|need|needed)\b|"
    r"\bwhat was i (?:looking|searching|after|saying)\b|\bwhat am i (?:looking|searching) for\b|"
    r"\b(?:do|can) you (?:remember|recall)\b|\bremember what\b|\bwhat i (?:said|told you|"
    r"mentioned)\b|"
    r"\bdid i (?:say|tell you|mention)\b|\bwhat was it i\b|\bremind me what\b"
)
BYE = re.compile(
    r"\b(?:good ?bye|bye|farewell|(?<!to )see (?:you|ya)(?= *(?:later|soon|tomorrow|around|"
    r"again|then|next|some|$|[!.,]))|later,? then|good night|goodnight|"
    r"gotta go|got to go|have to go|must go|need to go|i'm off|i am off|i'm leaving|i am leaving|"
    r"take care|(?<![a-z] )so long(?! as\b)|cheerio|until next time|catch you later|"
    r"be going now|be off now|"
    r"must be going|adieu|ciao|ta-ta|i'll be going|laters|(?<![\w ])later(?= *[!.]*$)|"
    r"(?:ok|okay|right|alright|cool),? later(?= *[!.]*$)|catch (?:you|ya) "
    r"(?:later|around|soon)|peace out|ttyl|toodle-?oo|night night|nighty night|"
    r"(?:gotta|got to|have to|must|need to) (?:run|dash|head off|head out|split|get going)|"
    r"(?:i'm|im|i am) (?:out|off then|off now|heading off|heading out)(?= *[!.]*$)|"
    r"i(?:'ll| will|'d better| had better| better| should) (?:be off|head off|get going|"
    r"make a move|be on my way)|"
    # "I'd best be going", "time I was off", "I must be on my way", "be seeing you"
    r"(?:best|better|ought to|should|must) be (?:going|off|on my way|heading)|"
    r"time (?:i|we) (?:was|were|went|got going)|(?:must|should|will) be on (?:my|our) way|"
    r"(?<!did )(?<!do )(?<!will )(?<!won't )be seeing (?:you|ya)|^(?:right|well|ok|okay),? "
    r"(?:i'm|im) (?:away|off)\b|^off i go|^ta-?ra\b|toodles|safe travels|leave you to it|"
    r"let you get (?:back|on)|(?:i'm|im|i am) heading (?:home|back)|"
    # said as the player goes, not asked: "I'm heading out now", "time to head home", "I'd
    # better get back before dark", "have a good one" (but "I won't keep you long, but...?")
    r"(?:(?:i'm|im|i am) heading (?:out|off)(?: now| then)?(?= *[!.]*$)|time to (?:head|go|get) "
    r"(?:home|back|going)|i(?:'d| had) (?:better|best) get (?:back|home|going)|"
    r"i (?:should|must|have to|need to) get (?:back|home|going)|"
    r"see (?:you|ya) in the (?:morning|evening|afternoon)|godspeed|gtg|g2g|bye{2,}|"
    r"have a (?:good|nice|great|lovely|safe) (?:one|day|evening|night|afternoon|morning|trip)|"
    r"(?:won't|will not|shan't|don't let me|not) keep(?:ing)? you|leave you be|"
    r"(?:i'll|i will) (?:come|be) back (?:later|tomorrow|another time|another day)(?= *[!.]*$)|"
    # "I'm going now", "time for me to go", "till we meet again", "be well", "*waves*"
    r"(?:i'm|im|i am) (?:going|away)(?: now| home| back| off)?(?= *[!.]*$)|i(?:'ll| will) go "
    r"now|time for (?:me|us) to (?:go|leave|be off|head off)|(?:must|should|better|gotta|got "
    r"to|have to|need to) (?:go|get on|leave)(?: now| then)?(?= *[!.]*$)|(?:till|until) (?:we "
    r"meet again|tomorrow|next time|then)|see (?:you|ya) (?:round|at|by)\b|take it easy|"
    r"be well|all the best|mind how you go|stay safe|keep well|look after yourself|"
    r"that's me(?: off| done)?(?= *[!.]*$)|stop bothering you|waves?(?=\s*\*\W*$))"
    r"(?=[^?]*$))\b"
)
# "Go back to sleep", "I'll let you sleep", "sleep tight": a goodbye to someone going to
# bed (a walk to a place named "sleep" it is not). Read only when the line asks nothing.
TO_BED = re.compile(
    r"\b(?:go|get|head|off) (?:back )?to (?:sleep|bed)\b|\bback to (?:sleep|bed)\b|"
    r"\blet you (?:sleep|rest|get (?:some )?(?:sleep|rest)|get back to (?:sleep|bed))\b|"
    r"\bsleep (?:well|tight)\b|\bsweet dreams\b|\bget some (?:sleep|rest)\b"
)
# "Sorry, did I wake you?", "sorry to get you up", "were you asleep?": the player's word on
# having woken the NPC.
WAKE_SORRY = re.compile(
    r"\b(?:did|have) i (?:just )?(?:wake|woken|waken|disturb|get) you\b|"
    r"\bsorry (?:to|for|i|if i|if i've|about) (?:have )?(?:wake|waking|woke|waken|disturb|"
    r"disturbing|get(?:ting)? you up|bother(?:ing)? you at this)|"
    r"\b(?:were|was) you (?:asleep|sleeping|in bed|already in bed|dozing)\b|"
    r"\b(?:forgive|pardon) me for (?:waking|disturbing)\b"
)
# "Shouldn't you be up by now?", "when do you get up?", "why are you in bed already?": when
# the NPC rises.
UP_WHEN = re.compile(
    r"\b(?:be|get|getting|got|wake|waking) up\b|\bup (?:by now|yet|already|so early)\b|"
    r"\b(?:why|how come)\b.*\b(?:asleep|sleeping|in bed|abed)\b|"
    r"\bwhen do you (?:wake|rise|start work)\b"
)
HELLO = re.compile(
    # "Wenna! Hello!": a name called first
    # "I said hello!": a hello said again
    r"^(?:(?:oh|well|and|why|i said|i say) |[a-z]+[!,] +)?"
    r"(?:hel+o+|hi+|hiya|hey+|heya|howdy|greetings|"
    r"good (?:morning|afternoon|evening|day)|morning|evening|afternoon|yo|hail|well met|"
    r"salutations|ahoy|"
    r"g'day|hullo|hallo|oi|sup|how do(?: you do)?(?=\W*$)|good morrow|top of the morning|"
    r"mornin|evenin|'ello|g'?morning|gday|long time no see|wotcha|a good (?:morning|evening|"
    r"day|afternoon) to you|(?:good|nice|lovely|great) to see you|"
    # the first words to someone: "nice to meet you", "excuse me!", "sorry to bother you"
    r"(?:it's )?(?:nice|pleased|good|lovely|a pleasure) to meet you|"
    r"(?:excuse|pardon) me(?=\W*(?:$|miss|sir|ma'am|mister|friend|there))|"
    r"sorry to (?:bother|trouble|disturb|interrupt) you(?=\W*$))\b"
)
THANKS = re.compile(
    r"\b(?:thanks|thank you|thank ye|thankyou|thx|cheers|much obliged|appreciate it|"
    r"i appreciate|ta)\b"
)
HOW_ARE_YOU = re.compile(
    r"\bhow (?:are|r) (?:you|u|ya)\b|\bhow(?:'s| is) (?:it going|life|things|your day|business|"
    r"work|the day)\b|\bhow do you do\b|\bhow have you been\b|"
    # "what's up at the watchtower?" asks of the place
    r"\bwhat'?s up\b(?! (?:at|with|in|on|by|there|over|near|around)\b)|"
    r"\bwhat's new\b|\bhow goes it\b|\bhow are things\b|\bare you (?:ok|okay|well|alright|"
    r"all right)\b|"
    r"\bhow(?:'s| is) everything\b|\bhow you doing\b|\bhow are you doing\b|"
    r"\bis (?:business|trade) (?:good|slow|brisk|busy|ok|okay|going well)\b|\byou (?:ok|okay|"
    r"alright)\b"
)
QUESTION = re.compile(
    r"\?|^(?:who|what|where|when|why|how|which|is|are|do|does|did|can|could|would|will|have|"
    r"has|describe|know)\b"
)
# Asked what to go and see or do here, in any words: "what should I go and see while I'm
# here?", "anything I shouldn't miss?", "where should I go next?", "what would you do if
# you were me?", "any tips for a newcomer?". Read before a goodbye the same line carries.
RECOMMEND = re.compile(
    r"\bwhat (?:should|must|could|ought|would you have|do you think|would you say) (?:i|we) "
    r"(?:to )?(?:(?:go|come|pop|head) (?:and |to )?)?(?:see|visit|try|do|not miss|check out|"
    r"look at|go and see|have a look at)\b|"
    r"\bwhere (?:should|must|could|ought|would you have|do you think|would you say) (?:i|we) "
    r"(?:to )?(?:go|visit|look|head|wander|walk|stop)\b|"
    r"\b(?:what(?:'s| is)|anything|anywhere|is there anything|is there anywhere|somewhere)"
    r"(?: (?:else|here|round here|around here))? (?:worth|good for) (?:seeing|a visit|visiting|"
    r"a look|doing|the walk|a wander)\b|"
    r"\bwhat(?:'s| is) (?:there )?(?:to see|good to (?:see|eat|try))\b|"
    r"\b(?:any|anything|anywhere) (?:good|nice|decent|tasty) (?:to eat|food|grub|for (?:a |"
    r"some )?(?:meal|food|bite))\b|"
    r"\bwhat (?:do|would|can|could) you (?:recommend|suggest)\b|\bany (?:recommendations|"
    r"suggestions)\b|\byou(?:'d| would) recommend\b|"
    r"\b(?:anything|what|where|somewhere)(?: else)? (?:i|we) (?:shouldn't|should not|mustn't|"
    r"must not|oughtn't to) miss\b|\bnot to be missed\b|\b(?:must|should) not miss\b|"
    r"\bif you were me\b|\bin my (?:shoes|place|boots)\b|"
    r"\b(?:any|got any|have you (?:got )?any|some) (?:tips?|advice|pointers)(?: (?:for|to give))? "
    r"(?:a |an |the )?(?:newcomer|visitor|stranger|traveller|traveler|first-timer|new ?comer|"
    r"someone new|new face|me|us)\b|"
    r"\bwhere(?:'s| is| would you go) (?:a |the )?(?:good|nice|best) (?:place|spot) to (?:go|visit|"
    r"spend|while|pass)\b|\bfree (?:afternoon|morning|day|evening|hour)\b"
)
# A place asked for by what it is good for ("best place to watch the sunset?"), read so
# when the line names no place by its words.
BEST_PLACE = re.compile(
    r"(?:\b(?:best|nicest|prettiest|finest|loveliest|quietest)|(?:\bwhere(?:'s| is| can i find| "
    r"would i find| do i find)|\bany|\bknow|\bsuggest|\brecommend) (?:a |an |any )?(?:good|nice|"
    r"decent|quiet|lovely)) (?:place|spot|view|sight|corner)s? (?:to|for|from) \w+"
)
# The kinds of its own life `SELF` reads, answered from its sheet and its day.
VILLAGE = re.compile(
    r"\b(?:tell me about|what(?:'s| is)|describe|what's it like in|how(?:'s| is)|what can i do in|"
    r"what is there (?:to do|to see)? ?in|show me) (?:this|the|your) (?:village|town|place)\b|"
    r"\bwhat(?:'s| is) there to (?:do|see)\b|\bwhat(?:'s| is)? there to do\b|"
    r"\bwhat(?:'s| is) (?:there )?(?:around|in) here\b|"
    r"\bwhere am i\b|\bwhat places\b|\bwhat(?:'s| is) (?:this|the) (?:village|town|"
    r"place) (?:called|like)\b"
)
SEEK = re.compile(
    r"\b(?:i'm|i am|im|we're|we are) (?:looking|searching|hunting) for\b|\bhave you seen\b|"
    r"\bi(?:'ve| have)? lost\b|\bi can't find\b|\bi cannot find\b|\bi need to find\b"
)
SAD = re.compile(
    r"\b(?:i'm|i am|im|i feel|feeling|i've been) (?:so |very |really |a bit |kind of )?(?:sad|"
    r"lonely|"
    r"tired|exhausted|scared|afraid|frightened|worried|upset|miserable|unhappy|down|lost|hungry|"
    r"cold|sick|ill|hurt|bored|homesick|angry)\b|\bbad day\b|\bi miss\b"
)
GLAD = re.compile(
    r"\b(?:i'm|i am|im|i feel|feeling) (?:so |very |really |a bit )?(?:happy|glad|great|excited|"
    r"wonderful|good|fine|well|grand|cheerful|lucky)\b|\bgood day\b|\bwhat a (?:lovely|nice|"
    r"beautiful|great) day\b|\bi love (?:it|this|your) (?:here|village|place)\b"
)
# Something of the NPC's asked for: a taste, a gift, a loan ("could I try a piece?").
FAVOUR = re.compile(
    # "could I have a look round?" asks no thing; "could I have a jug?" does
    r"\b(?:can|could|may|might) (?:i|we) (?:please )?(?:have|try|taste|get|borrow|take|keep|"
    r"sample)\b(?! (?:a |an )?(?:look|peek|go|word|think|seat|rest|chat|walk|wander|turn|"
    r"listen|moment|minute)\b)|"
    r"\b(?:can|could|would|will) you (?:please |just )?(?:give|lend|spare|hand) "
    r"(?:me|us|it|that|them|this|those)\b|\bhand (?:it |them |that |this )?over\b|"
    r"\bpass (?:it|them|that) (?:here|over)\b|\bfree of charge\b|"
    r"\bgive (?:me|us|it to me) (?:\w+ ){0,3}for (?:free|nothing)\b|\bfor free\b|"
    r"\bspare (?:me|us) (?:a|some|one)\b|^\W*(?:\w+, )?(?:please )?lend (?:me|us)\b|"
    # leave to handle something, not to take it: "can I hold one of the geese?"
    r"\b(?:can|could|may|might) (?:i|we) (?:please )?(?P<leave>hold|pet|stroke|touch|feed|"
    r"handle|cuddle)\b"
)
# Idle talk offered ("fancy a natter about the weather?"): the persona decides.
# Small talk of the weather or the day, as a remark or asked ("nice weather, isn't it?",
# "what do you make of this rain?", "lovely morning!").
WEATHER = re.compile(
    r"\bweather\b|\b(?:lovely|nice|fine|beautiful|glorious|grand|gr[ae]y|miserable|horrible|"
    r"awful|terrible|gloomy|bright|warm|cold|hot|wet) (?:day|morning|evening|afternoon)\b|"
    r"\b(?:rain|raining|rainy|sunny|sunshine|windy|foggy|fog|snow|snowing|chilly|cloudy|stormy|"
    r"drizzle|drizzly|muggy|freezing)\b|\b(?:it's|it is|so|bit) (?:cold|hot|warm)\b"
)
CHATTER = re.compile(
    r"\b(?:fancy|want|care for|up for|how about|time for|got time for|in the mood for) "
    r"(?:a |some )?(?:\w+ ){0,2}(?:chat|natter|talk|gossip|chinwag|yarn|gab|conversation)\b|"
    r"\b(?:chat|talk|natter|gossip) (?:for a (?:while|bit)|a while|about the weather)\b|"
    r"\bsmall talk\b|\bdo you (?:like|enjoy|fancy|mind) (?:a |some )?(?:\w+ ){0,3}"
    r"(?:chats?|natters?|chinwags?|gossip|chatter|talking)\b"
)
# "Do you enjoy it when the plaza's packed?": the NPC's liking, asked by a thing it has
# a side on, before the place named.
LIKING = re.compile(r"^(?:\w+,? )?do you (?:like|enjoy|love|hate|mind|prefer)\b")
# "Where do all these things of yours come from?": where its goods or it come from.
ORIGIN = re.compile(
    r"\bwhere (?:do|does|did) (?:\w+ ){0,8}come from\b|\bwhere did you (?:get|find)\b"
)
# "Will you come down to the square later on?": an invitation for later, not a walk now.
INVITE = re.compile(
    r"(?:\b(?:will|would|can|could|won't|are|do) (?:you|ya) (?:be |want to |fancy |care to |"
    r"like to )?|^\W*(?:\w+,\s*)?(?:(?:do )?(?:you )?(?:want|wanna|fancy|care) (?:to )?(?:a |an )?|"
    r"let'?s |how about (?:we )?|shall we |i'll |i will |)(?:come (?:and )?)?)(?:come|coming|join|"
    r"joining|meet|meeting|be|stop|drop|pop|head|heading|go|going|grab|have|sit|share|walk|"
    r"stroll|wander|swim|fish|picnic)\b[^?.!]*?\b(?:later|tonight|"
    r"tomorrow|this (?:evening|afternoon|morning)|after (?:work|supper|dinner|dark|sunset)|"
    r"at (?:noon|midday|dusk|sundown|sunset|night))\b"
)
# "Are all these goats yours?", "whose cart is this?": whose things they are.
OWNER = re.compile(
    r"(?:^|[.!?]\s+)(?:(?:and|so|but|hey|oh),? )?(?:are|is|were|was) (?:all |any of )?"
    r"(?:these|those|this|that|they|it|the)\b[^?.!]*\b(?:yours|your own)\b|\bwhose\b[^?.!]*\?|"
    r"\b(?:do|does) (?:these|those|this|that|they|it|the \w+) belong to (?:you|anyone|someone)\b|"
    r"\bdo you own (?:these|those|this|that|the|all)\b"
)
# "Is it still morning?", "what time is it?", "when does it get dark?": the time of day.
TIME = re.compile(
    r"\bwhat(?:'s| is)? the (?:time|hour)\b|\bwhat (?:time|hour) is it\b|\bhow late is it\b|"
    r"\bis it (?:still |already |nearly |getting )?(?:morning|noon|midday|afternoon|evening|"
    r"night|dawn|dusk|late|early|dark)\b|"
    r"\b(?:when|what time) (?:does|do|will) (?:it|the sun|the light|night|dusk|dark(?:ness)?) "
    r"(?:get|go|set|fall|come|rise|grow|turn)|\bwhat time(?: is|'s) (?:sun ?set|dusk|nightfall)|"
    r"\bis it (?:\w+ )?(?:supper|dinner|lunch|tea|breakfast)(?: ?-?time)?\b"
)
# The time question that asks when night comes, and when day does.
DARK = re.compile(r"\bdark|\bnight|\bdusk|\bsun ?set|\bsets?\b|\bfall")
_LIGHT = re.compile(r"\bsun ?rise|\brises?\b|\bcome up\b|\bget light|\bdawn|\bday ?break")


def time_asked(line: str) -> str:
    """Of a time question: "dark" asked when night comes, "light" when day does, else ""."""
    if not re.search(r"\bwhen\b|\bwhat time\b", line):
        return ""  # "is it dark yet?" asks the time
    return "dark" if DARK.search(line) else "light" if _LIGHT.search(line) else ""


# "Tell me more.", "and what else?", "go on", "and?", "like what?": more of what was just
# talked of.
MORE = re.compile(
    r"^\W*(?:\w+[.!,]\s*)?(?:(?:please|so|and|ok|okay|oh|yes|yeah|go on),?\s+)*"
    r"(?:tell me more|more|"
    r"go on|what else|what more|anything more|and then|keep going|say more|anything else|and|"
    r"and so|then what|what then|what next|carry on|continue|do tell|keep talking|such as|"
    r"like what|for (?:example|instance)|and what about it)"
    r"(?:,? (?:please|then|now))?\W*$"
)
# "Heard any good gossip?", "any juicy rumours?", "who's been up to what?", "tell me
# something about the folk here": talk of the neighbours asked for.
GOSSIP = re.compile(
    r"\bgossip\b|\brumou?rs?\b|\bscandals?\b|\btittle-?tattle\b|\bjuicy\b|\bthe dirt on\b|"
    r"\bwho(?:'s| is| has| have)?(?: else)?(?:'s| is| has| have)?(?: been)? (?:up to|doing what|"
    r"courting|feuding)\b|"
    r"\bwhat(?:'s| is| are| have)? (?:every(?:one|body)|people|folks?|the (?:villagers|neighbou?rs|"
    r"locals|others)) (?:been )?(?:up to|saying|talking about|whispering)\b|"
    r"\b(?:tell|say|give) me (?:something|anything|a (?:bit|little)|the news) (?:about|of|on) "
    r"(?:the )?(?:folks?|people|villagers|neighbou?rs|locals|others|everyone|everybody)\b|"
    r"\bword (?:around|in|on|about) (?:the )?(?:village|town|street|square|here)\b|"
    # the village's goings-on: "what's been happening round here?", "how's everyone?"
    r"\bwhat(?:'s| is| has)(?: been)? (?:happening|going on)(?: (?:a?round here|lately|these "
    r"days|in (?:the )?(?:village|town))|(?=\W*$))|\bhow(?:'s| is| are) (?:every(?:one|body)|"
    r"(?:the )?(?:folks?|people|villagers|neighbou?rs))(?: (?:doing|keeping|getting on))?"
    r"(?: (?:a?round here|in (?:the )?(?:village|town)|lately))?(?=\W*$)|"
    r"\b(?:any(?:one|body)|who(?:'s| has)?) (?:been )?(?:in|into|causing) (?:any )?trouble\b|"
    r"\banything (?:exciting|interesting|strange|odd|new|worth (?:knowing|hearing|telling))"
    r"(?: (?:happen|going on|been happening)|(?: (?:today|lately|round here|around here|"
    r"these days))?(?=\W*$))|\b(?:is )?(?:there )?anything (?:happening|going on)\b|"
    r"\banything worth (?:knowing|hearing|telling)\b"
)
# "What have you got in your pocket?": what it carries or keeps.
HAVE = re.compile(
    r"\bwhat(?:'s| is|'ve you got| have you got| do you have| do you keep| do you carry|"
    r" are you carrying)? in (?:your|that|the|those|these) (?:\w+ )?(?:pockets?|bag|sack|pouch|"
    r"basket|box|satchel|cart|purse|hands?)\b"
)
PERSON_SUB = (
    (
        "family",
        r"\b(?:family|kids|children|wife|husband|married|wed|sons?|daughters?|parents|"
        r"brothers?|sisters?|kin|folks)\b(?!'s)",
    ),
    (
        "where",
        r"\bwhere\b|\bfind\b|\bsee (?:him|her|them)\b|\blives?\b|\blook for\b|\bmeet\b|"
        r"\b(?:which|what) way\b|\bway to\b|\bget to\b|\bdirections?\b|\bhow far\b",
    ),
    (
        "opinion",
        r"\bthink\b|\bfeel\b|\bopinion\b|\blike\b|\bmake of\b|\bgets? (?:along|on)\b|"
        r"\btrust\b|\bfriends?\b|"
        r"\breckon\b|\bnice\b|\bkind\b|\bgood\b|\bmean\b|\bview\b|\bhow is\b|\bhow's\b|"
        r"\bthoughts\b|\b(?:problem|issue|quarrel|trouble|beef) with\b|\b(?:got|have) against\b|"
        r"\b(?:secrets?|gossip|rumou?rs?|dirt) (?:about|on|of)\b|"
        # "does Bram ever pay his bills?", "is Bram married?": a yes or no of them, not who
        r"^\W*(?:does|did|is|was|has|will|would|can) [a-z]+ (?!(?:the|a|an|here|there|"
        r"around|in|at|about|from|you|your|that|this|one|who|still here)\b)[a-z]+",
    ),
)
# Who the village looks to, asked ("who's in charge around here?", "who runs this village?"),
# and the words of a role that lead it.
LEADER_ASKED = re.compile(
    r"\bwho(?:'s| is)? (?:in charge(?! of (?!(?:the |this )?(?:village|town|place)\b))|"
    r"the (?:boss|head|leader|headman|headwoman|chief)\b"
    r"(?! of (?!(?:the |this )?(?:village|town)))|"
    r"leads|rules|governs|runs (?:this|the) (?:village|place|town)(?=\W*$)|speaks for (?:the )?"
    r"(?:village|town))"
)
LEADER = re.compile(
    r"\b(?:elder|reeve|mayor|headman|headwoman|chief|steward|bailiff|alderman|warden|"
    r"magistrate|council|leader|lord of|lady of|head of the (?:village|town))\b",
    re.I,
)
# A story asked for: "tell me a story", "know any legends?", "any ghost stories?", "what's
# the strangest thing that ever happened here?", "tell me about the old days". Not a line
# that only mentions one ("that's a long story", "your story about the dragon was true?").
_TALE = r"(?:stor(?:y|ies)|tales?|legends?|yarns?|fables?|myths?)"
STORY = re.compile(
    r"\b(?:tell|telling|give|spin|share|recite|know|knows|got|have|hear|remember|any|"
    r"some|another)\b(?: (?:me|us|you|of|one|a|an|any|some|another|more|good|old|great|"
    r"scary|spooky|ghost|true|tall|little|short|local|favou?rite|best|of your|your|the old|"
    r"the best|the strangest|strange|odd|funny|village|folk|fireside|bedtime|nice|"
    r"interesting|juicy|happy|sad)){0,4}(?: [a-z]+)? " + _TALE + r"\b|"  # "a war story"
    r"^\W*(?:(?:so|well|hey|ok|okay|oh|go on),? )?(?:any|some|a|another|one more) (?:\w+ )?"
    + _TALE
    + r"\W*$|"
    r"\b(?:strangest|oddest|weirdest|scariest|spookiest|funniest|craziest|most curious) "
    r"(?:thing|story|tale|sight|happening|event)s?\b[^.?!]{0,30}\b(?:happened|happen|seen|"
    r"saw|heard|known|witnessed)\b|"
    r"\b(?:about|of|from|in|like) (?:the )?(?:old(?:en)? days|days of old|days gone by|"
    r"good old days|long ago)\b|\bback in (?:the|your) day\b|\bin your day\b"
)
# What reads as no story asked: who tells them, whether one was true, a refusal of one.
NOT_STORY = re.compile(
    r"\bwho\b|\b(?:is|was|were|are) (?:it |that |they |those )?(?:true|real|a lie|made up)\b|"
    r"\b(?:don't|do not|no more|stop|quit|enough|spare me|never|hate|not another)\b[^.?!]*"
    + _TALE
    + r"|\bhow long ago\b|\byou (?:told|said)\b"
)
# Another one asked for after a story: "another one", "one more", "tell me another".
STORY_AGAIN = re.compile(
    r"^\W*(?:(?:please|so|and|ok|okay|oh|go on|ha|yes|more),?\s+)*(?:(?:tell me |got |know )?"
    r"another(?: one)?|one more|tell me another|again|more stories|more tales)"
    r"(?:,? (?:please|then|now))?\W*$"
)
# A song asked for: "sing me a song", "can you sing?", "know any songs?".
SONG = re.compile(
    r"\bsing (?:me|us|for|something|a|another|one|to me)\b|\b(?:can|will|would|could) you sing\b|"
    r"\b(?:know|got|have) any (?:good |old )?(?:songs|tunes|ballads)\b|"
    r"\b(?:give|play|sing) (?:me|us) a (?:song|tune|ditty|ballad)\b"
)


# What a hello says of the one saying it, met before the NPC's own hello: the line table
# that meets it.
GREETED_WITH = (
    (
        "greet_weary",
        re.compile(
            r"\b(?:tired|weary|exhausted|worn out|my feet|my legs|long (?:road|walk|way|day)|"
            r"walked (?:all|for|miles|far))\b",
            re.I,
        ),
    ),
    (
        "greet_new",
        re.compile(
            r"\b(?:new (?:here|in town|to (?:the|this) village)|just arrived|first (?:time|day) "
            r"here|passing through|only arrived)\b",
            re.I,
        ),
    ),
    ("greet_cold", re.compile(r"\b(?:cold|freezing|chilly|bitter|nippy|frosty)\b", re.I)),
)

# What the NPC is doing asked of, by the things of its own place.
DOING_YOU = re.compile(r"\bwhat (?:are|were) you (?:doing|up to|making|building)\b")
TELL_ME_OF = re.compile(r"\btell me (?:all |everything |more )?(?:about|of)\b")
