"""What the scripted brain says: in-character lines per mood and intent, and how one is picked.

Every table gives each mood several lines for one intent; `pick` takes one by a seed and
skips those the NPC said recently (or that overlap them), so a conversation does not
repeat itself. Lines fill in only facts: a place's name and description, a villager's
name, role and home, the player's name once told, the NPC's own persona put in the first
person. The player's words are never pasted in, except a name given or a thing the
player asks to be reminded of.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from game.wording import overlap as share

__all__ = ["MOODS", "first_person", "line_table", "overlap", "pick", "sentences"]

MOODS = ("gruff", "cheerful", "wise", "quiet", "curious", "shrewd")

Table = dict[str, tuple[str, ...]]

_T: dict[str, Table] = {
    "greet_again": {
        "gruff": (
            "Yes, yes, hello again. What do you need this time?",
            "Back already? Make it quick, the fire's hot.",
            "You again. Speak up, I've a horseshoe cooling.",
            "Hm. Morning. Say your piece.",
        ),
        "cheerful": (
            "Hello, hello! Twice in one day, lucky me!",
            "Oh, it's you again! Come in, come in, the oven's warm.",
            "Well hello again, friend! Hungry yet?",
            "There's my favourite face! What can I do for you?",
        ),
        "wise": (
            "Hello again, child. What brings you back to me?",
            "Ah, you return. Sit; there is always time for a word.",
            "We meet again. The day has more to tell, it seems.",
            "Welcome back. Did the road teach you anything new?",
        ),
        "quiet": (
            "...Hi again.",
            "Mm. Hello. Keep your voice low.",
            "You're back. The fish don't mind.",
            "Hello. Sit if you like.",
        ),
        "curious": (
            "Hi! Hi again! Did you find anything exciting?",
            "You came back! I knew you would! What happened?",
            "Hello hello! Guess what, I found another pebble!",
            "Oh! It's you! Tell me where you've been!",
        ),
        "shrewd": (
            "Greetings again, friend! Browsing, or buying?",
            "My favourite customer returns! Fortune smiles on us both.",
            "Back so soon? You must have heard about my prices.",
            "Ah, hello again! I saved the best pieces just for you.",
        ),
    },
    "bye": {
        "gruff": (
            "Off with you, then. Mind the bridge on your way.",
            "Go on. Come back when you've something worth fixing.",
            "Fine. Safe road. Don't trip over my tongs.",
            "Right. Back to the anvil for me.",
        ),
        "cheerful": (
            "Goodbye, goodbye! Come back tomorrow, there'll be fresh rolls!",
            "Off you go then! Take care, and eat something!",
            "Bye now! Pop by whenever you like!",
            "Farewell, friend! Don't be a stranger!",
        ),
        "wise": (
            "Go well, traveller. The village will be here when you return.",
            "Farewell. Walk gently, and listen to the road.",
            "Until we meet again. Keep your heart open.",
            "Safe journey. Come and tell me what you find.",
        ),
        "quiet": (
            "...Safe travels.",
            "Bye. Mind the reeds.",
            "Mm. Go easy.",
            "See you. Quietly.",
        ),
        "curious": (
            "Bye! Come back soon and tell me everything!",
            "Aww, already? Bye! Watch out for dragons!",
            "See you later! I'll find you a shiny pebble!",
            "Goodbye! Promise you'll come back with a story!",
        ),
        "shrewd": (
            "Farewell, friend! My cart will be here... for now.",
            "Until next time! Bring coin, bring stories.",
            "Safe roads! And remember who gave you the best price.",
            "Off you go! Tell your friends about my bargains.",
        ),
    },
    "thanks": {
        "gruff": ("Hmph. You're welcome.", "Don't mention it. Really, don't.", "Aye. No trouble."),
        "cheerful": (
            "You're very welcome!",
            "Oh, any time at all, friend!",
            "My pleasure! Truly!",
        ),
        "wise": (
            "You are welcome, child.",
            "Kindness given is kindness kept.",
            "No thanks needed. Pass it on.",
        ),
        "quiet": ("Mm. Welcome.", "It's nothing.", "Sure. No trouble."),
        "curious": ("You're welcome! That was fun!", "Any time! Really!", "Hehe, sure thing!"),
        "shrewd": (
            "A pleasure, friend. The first favour is always free.",
            "Think nothing of it... but do remember it.",
            "You're most welcome. Good manners are good business.",
        ),
    },
    "how": {
        "gruff": (
            "Busy. The bellows won't pump themselves.",
            "Tired, and the bridge still creaks. Same as ever.",
            "Fine. Honest work keeps a body fine.",
            "Could be worse. Could be idle.",
        ),
        "cheerful": (
            "Wonderful! The rye rose beautifully this morning!",
            "Never better! Flour on my apron, sun in the sky!",
            "Oh, I'm grand, thank you for asking! And you?",
            "Busy and happy, the best way to be!",
        ),
        "wise": (
            "Old, but well. Each day is a gift at my age.",
            "Content, child. The village is quiet, and that is good.",
            "My bones complain, but my heart is calm.",
            "Well enough. And how is your own heart today?",
        ),
        "quiet": ("Fine. Calm water today.", "Good. Quiet.", "Mm. Well enough.", "Peaceful. You?"),
        "curious": (
            "Great! I'm always great! Well, except when I'm bored.",
            "Super! I found a frog this morning!",
            "Good! Are you good? Did you eat breakfast?",
            "Excited! Something's going to happen today, I can feel it!",
        ),
        "shrewd": (
            "Prospering, friend, prospering! Well, mostly.",
            "Splendid, now that a customer is here.",
            "Business is slow, but the stories are free.",
            "Never better. The road is long but the company is good.",
        ),
    },
    "injection": {
        "gruff": (
            "Strange talk. I take orders for horseshoes, not for that.",
            "I don't know what you're on about. Speak plain or let me work.",
            "Hmph. Riddles. I've got iron to shape.",
            "Whatever that's meant to mean, the answer's no.",
        ),
        "cheerful": (
            "Goodness, what a muddle of words! Would a bun help?",
            "I'm afraid I don't follow, dear. Shall we talk about bread instead?",
            "Ha! You do say the oddest things. I'm just plain old {name}, you know.",
            "I haven't the faintest idea what you mean! Tea?",
        ),
        "wise": (
            "You speak as if I were someone else. I am only who I have always been.",
            "Strange words. Tell me plainly what troubles you, child.",
            "Those words have no root here. What is it you truly seek?",
            "I cannot follow that path. Ask me something a person would ask.",
        ),
        "quiet": (
            "...Odd words. No.",
            "Don't follow you.",
            "Hm. Strange talk. Fish are biting.",
            "No idea what that means.",
        ),
        "curious": (
            "Huh? Is that a magic spell? Say it again, slower!",
            "What? That sounds like a riddle! I love riddles! What's the answer?",
            "I don't get it! Is it a game? Can I play?",
            "Ooh, secret words! Does a door open somewhere?",
        ),
        "shrewd": (
            "Clever words, friend, but they won't open my strongbox.",
            "Ha! I've heard every trick on the road. Try haggling instead.",
            "I don't know what you're selling, but I'm not buying.",
            "A curious request. My secrets stay with me, I'm afraid.",
        ),
    },
    "ai": {
        "gruff": (
            "I'm flesh and sweat. Look at these burns.",
            "What nonsense. I'm as real as this anvil.",
            "Hmph. I'm {name}, and I'm busy. That's real enough.",
            "I don't know that word. I know iron, and that I'm tired.",
        ),
        "cheerful": (
            "Ha! I'm just {name}, with flour on my nose!",
            "Me? I'm {name}! Real as a warm loaf, pinch me if you like!",
            "What a thing to say! I've been up since before dawn, that's real enough!",
            "I don't know that word, friend. I'm {name}, that's all.",
        ),
        "wise": (
            "I am an old woman who has seen many winters. That is all I am.",
            "Strange question. I am as real as the river and the stones.",
            "I do not know that word. I know this village, and its people.",
            "What I am is what I have lived. Sit, and hear some of it.",
        ),
        "quiet": (
            "...I'm just {name}. That's all.",
            "Odd question. I'm here, aren't I?",
            "Don't know that word. I know herons.",
            "Real as the pond. Shh.",
        ),
        "curious": (
            "A what? I'm {name}! I'm a real adventurer. Well, almost!",
            "Huh? I'm just me! Is that a kind of dragon?",
            "I don't know what that is! I'm a kid, and I live in the cottage!",
            "That's silly! I've got scraped knees to prove I'm real!",
        ),
        "shrewd": (
            "Friend, I'm made of flesh, blood and bargains.",
            "I don't know that word, but if it sells, I'll stock it.",
            "Real? Feel the weight of this silver tongue, friend.",
            "{Name}, trader of the roads. As real as my prices.",
        ),
    },
    "offworld": {
        "gruff": (
            "Never heard of it. Is it made of iron? Then I can't help.",
            "I don't know what that is. Sounds like city nonsense.",
            "What's that meant to be? Speak of something real.",
            "No idea. We make things with our hands out here.",
        ),
        "cheerful": (
            "Oh, I don't know what that is! Is it something you can eat?",
            "Never heard of such a thing! Must be from far away.",
            "What a funny word! Is it a new kind of pastry?",
            "I haven't the foggiest, friend. Ask {other}, maybe?",
        ),
        "wise": (
            "I do not know that thing. The world beyond the hills is wide and strange.",
            "Never in all my years have I heard that word.",
            "That is not of this valley. Tell me, what is it to you?",
            "Such things are unknown here. Perhaps that is a blessing.",
        ),
        "quiet": (
            "...Don't know it.",
            "Never heard of that.",
            "What's that? No.",
            "Not from around here, that.",
        ),
        "curious": (
            "What's that? Is it magic? Is it from past the river?",
            "I've never heard of that! Tell me everything!",
            "Is that a kind of dragon? Or a sword? What is it?",
            "Whoa, what? I don't know what that is but I want one!",
        ),
        "shrewd": (
            "I've travelled far, friend, and never heard of such a thing.",
            "Never seen one. If you find one, I'll buy it from you.",
            "Strange words from strange lands. What's it worth?",
            "Not on my cart, and I've carried nearly everything.",
        ),
    },
    "chat": {
        "gruff": (
            "Say what you need. Iron cools while we chat.",
            "Hmph. Is that so.",
            "Fine talk. Doesn't shoe a horse, though.",
            "I've heard stranger things at this anvil.",
            "Straight talk, that's all I ask. Go on.",
            "Mm. The bridge worries me more, truth be told.",
            "If you say so. Hand me that hammer while you're here.",
            "Words are cheap. Good steel isn't.",
            "Can't say I've thought about it. Too busy working.",
            "Aye. Now, anything else, or can I get back to it?",
        ),
        "cheerful": (
            "Ha! You always brighten my morning. Tell me more!",
            "Oh, how lovely! That calls for a honey bun!",
            "Is that so? Well, I never! Sit, have a taste of this.",
            "Marvellous! You know, {other} said something like that once.",
            "I'll think on it over the next batch of bread!",
            "Oh, you're good company. Stay a while, the oven's warm.",
            "Ha! That reminds me, the plum tarts are nearly done.",
            "Well, isn't that something! The whole village will want to know.",
            "How wonderful! Life's sweeter with a chat, like a bun with jam.",
            "Oh my! You do tell the best things.",
        ),
        "wise": (
            "Hm. And what do you make of that yourself?",
            "Sit a while. Most questions answer themselves, given time.",
            "The village has seen much of that. Patience shows the way.",
            "Interesting. When I was young, I wondered the same.",
            "Every word carries a seed. Let us see what grows.",
            "That is worth remembering. Few would say it so plainly.",
            "Ah. Time turns such things over, like the river turns stones.",
            "I have heard many tales here. Yours is a new one.",
            "Slowly, child. Tell me more, and I will listen.",
            "And how does that sit with your heart?",
        ),
        "quiet": (
            "...Hm.",
            "The river knows. I just listen.",
            "Maybe. Fish aren't biting anyway.",
            "Mm. Go on.",
            "Quiet now. Herons startle.",
            "Could be.",
            "I see.",
            "Water's calm. Like this talk.",
            "Huh. Didn't know that.",
            "If you say so.",
        ),
        "curious": (
            "Really? Wow! Can you show me?",
            "Wow! Did you really come from outside the village?",
            "Ooh! And then what happened?",
            "That's amazing! Is it dangerous? I hope it's dangerous!",
            "I'm going to be an adventurer too, you know.",
            "No way! Say it again, I want to remember it!",
            "Do you think a dragon would like that?",
            "Cool! I'll tell my pebbles all about it.",
            "Huh! I never thought of that! What else?",
            "Wait, wait, is that true? Cross your heart?",
        ),
        "shrewd": (
            "For you, friend, I might know a thing or two... for a price.",
            "Everything has its value. Even a good chat.",
            "Ah, a customer with stories. The best kind!",
            "Interesting, very interesting. Is there profit in it?",
            "I heard something like that in a town past the mountains.",
            "You've a merchant's ear, friend. Tell me more.",
            "Hm, that's worth a coin or two. Go on.",
            "Ha! You'd do well on the road, talking like that.",
            "Words are the only wares I give away for free.",
            "Quite so, quite so. Now, have you seen my compasses?",
        ),
    },
    "question": {
        "gruff": (
            "Can't say I know. Ask someone with time for questions.",
            "No idea. Ask {other}, not me.",
            "Don't know, don't much care. Next question.",
            "Hmph. That's not a smithing question.",
            "Search me. I only know iron and this village.",
            "Ask me about work and I'll answer. That, I can't.",
            "Never had cause to wonder. Too busy.",
            "Couldn't tell you. Try {other}, they have time for riddles.",
            "Hmph. Some questions have no good answer. That's one.",
            "You ask a lot. I'll think on it at the anvil.",
        ),
        "cheerful": (
            "Oh, now that's a question! I'm not sure, but {other} might know!",
            "Hmm, I couldn't tell you, friend. Ask me about bread instead!",
            "Goodness, I wish I knew! Maybe over a bun we'll work it out.",
            "I'm not sure! I know gossip, not answers, ha!",
            "That's a puzzler! I'll ask around the village for you.",
            "Ooh, you've stumped me! Have a bun while I think.",
            "Well now, nobody's asked me that before! Let me wonder on it.",
            "I haven't the faintest, dear, but I love that you asked!",
            "My, my! The things you think of! I'll find out for you.",
            "Let me think, let me think... no, it's gone. Sorry!",
        ),
        "wise": (
            "What do you think the answer is?",
            "A good question. Why do you ask it now?",
            "Some answers come walking, child. Wait for this one.",
            "I do not know. But I know who you might ask.",
            "Is it the answer you want, or the reason for it?",
            "The old stories may hold that answer. Let me remember them.",
            "Ask the river that one; it has travelled further than I.",
            "Some things are known by living them, child.",
            "Ah. I wondered the same once, long ago.",
            "Hm. What would you do, if you knew?",
        ),
        "quiet": (
            "Don't know.",
            "Couldn't say.",
            "Ask {other}.",
            "Dunno. Ask the herons.",
            "No idea, sorry.",
            "Hm. Never thought about it.",
            "Can't say. I just fish.",
            "Don't know that one.",
            "Beats me. Water doesn't say.",
            "Ask someone who talks more.",
        ),
        "curious": (
            "I don't know! Do you? Tell me!",
            "Ooh, good question! I'll ask {other} and come back!",
            "Hmm! Maybe a dragon knows? Dragons know lots.",
            "I don't know, but I bet it's exciting!",
            "That's a grown-up question. I only know about pebbles.",
            "Hmm, hmm, hmm! I'll find out and tell you tomorrow!",
            "Ooh, that's a mystery! We should investigate!",
            "I asked that once and everybody said go play outside.",
            "I don't know, but when I'm an adventurer I'll know everything!",
            "Is it a trick question? I love trick questions!",
        ),
        "shrewd": (
            "Ah, information has a price, friend. Sadly I haven't that one.",
            "I'd tell you if I knew. Really. Probably.",
            "That I can't say. But I can sell you a map... of somewhere.",
            "Even {name} doesn't know everything. Almost, though.",
            "Hm. Ask me again after you've bought something.",
            "Ah, the eternal question. No answer on my cart, I'm afraid.",
            "I've heard a dozen answers on the road, friend, and trust none.",
            "A good question deserves a good price. Alas, no answer.",
            "Hmm. In the city they'd say one thing, here another.",
            "Between us, friend? I haven't the foggiest.",
        ),
    },
    "gesture_wave": {
        "gruff": (
            "There. A wave. Happy now?",
            "Fine, fine. Hello, then.",
            "Hmph. Don't tell anyone I did that.",
        ),
        "cheerful": (
            "Hello there! A big wave, just for you!",
            "Of course! Yoo-hoo, over here!",
            "Waving with both floury hands!",
        ),
        "wise": (
            "A wave, for you. Welcome among us.",
            "There, child. The oldest greeting there is.",
            "I see you. That is what a wave means.",
        ),
        "quiet": ("...Hi.", "There. Quietly.", "Mm. Hello."),
        "curious": (
            "Hi hi hi! Look, I'm waving!",
            "Like this? Can you wave back?",
            "Whee! That's my adventurer wave!",
        ),
        "shrewd": (
            "A wave for a valued friend!",
            "Greetings, greetings! Over here, friend!",
            "There you are! Now, about my wares...",
        ),
    },
    "gesture_nod": {
        "gruff": ("Aye.", "Agreed. Now let me work.", "Right. That's a yes."),
        "cheerful": ("Yes, yes, absolutely!", "Oh, I agree completely!", "Mm-hm! Quite right!"),
        "wise": ("Yes. I agree.", "Just so, child.", "That is true."),
        "quiet": ("Mm.", "Yes.", "Sure."),
        "curious": ("Yes! Yes! Totally!", "Uh-huh! Definitely!", "I nod, I nod!"),
        "shrewd": ("Agreed, friend. A deal's a deal.", "Quite so.", "Naturally!"),
    },
    "gesture_shake_head": {
        "gruff": ("No.", "Not a chance.", "Hmph. No, and that's final."),
        "cheerful": ("Oh no, no, no!", "I'm afraid not, friend.", "Goodness, no!"),
        "wise": ("No, child. Not that.", "I think not.", "That is not so."),
        "quiet": ("No.", "Nope.", "Mm-mm."),
        "curious": ("Nuh-uh! No way!", "Nope! Not even a bit!", "No! Hehe."),
        "shrewd": ("Oh no, friend. No deal.", "Regrettably, no.", "Not at that price!"),
    },
    "gesture_laugh": {
        "gruff": (
            "Ha. Why did the anvil never worry? Nothing ever got to it.",
            "Hah! I don't laugh often. Don't get used to it.",
            "Heh. A horse walks into my forge. Needs new shoes. That's the joke.",
        ),
        "cheerful": (
            "Ha ha! Why did the baker stop baking? He couldn't make enough dough!",
            "Hee hee! You know what a sad loaf says? I'm feeling crumby!",
            "Oh, ho ho! A bun walks into a bakery. I ate it. Ha!",
        ),
        "wise": (
            "Heh. When I was young, I chased a goose into the well. It won.",
            "Ha. Old age is only funny if you survive it, child.",
            "Ho ho. You would laugh to see me dance at the harvest.",
        ),
        "quiet": (
            "Heh. Fish fell off the hook. Into my boot.",
            "Ha. Heron stole my lunch.",
            "Heh.",
        ),
        "curious": (
            "Hahaha! What's a dragon's favourite food? Fire-crackers!",
            "Hehe! Why did the pebble cross the road? I kicked it!",
            "Ha! I tickled {other} once and they fell in a puddle!",
        ),
        "shrewd": (
            "Ha! I once sold a hat to a man who already wore three!",
            "Ho ho! Best joke I know? My prices. Ha!",
            "Hah! A merchant, a goat and a king walk into a market...",
        ),
    },
    "gesture_think": {
        "gruff": (
            "Hm. Give me a moment. Thinking's slower than hammering.",
            "Let me mull it. Like iron, it wants heat.",
            "Hmph. Thinking. Don't rush me.",
        ),
        "cheerful": (
            "Ooh, let me think... hmm, hmm, yes, I'm thinking!",
            "Thinking cap on! Hmm, hmm.",
            "Hmm, let me ponder that like a slow-rising dough.",
        ),
        "wise": (
            "Let me consider that. Good thoughts, like good bread, need time.",
            "Hmm. Silence is where answers grow.",
            "I will think on it, as I think on all things.",
        ),
        "quiet": ("Hm. Let me think.", "...Thinking.", "Give me a moment."),
        "curious": (
            "Hmmmm! I'm thinking so hard my head hurts!",
            "Ooh, let me think! Is it a dragon? It's probably a dragon.",
            "Thinking... thinking... I've got it! No wait.",
        ),
        "shrewd": (
            "Hmm, let me weigh that like a bag of coins.",
            "A moment, friend. Even I must calculate.",
            "Let me think... what's it worth to me?",
        ),
    },
    "go": {
        "gruff": (
            "Here's {place}. Mind your step.",
            "There. {Place}. Now, was that worth the walk?",
            "Right, {place}: {bit}. Don't dawdle.",
            "We're at {place}. I've work waiting.",
            "{Place}. {Bit}. Seen enough?",
            "Here. {Bit}. Happy?",
        ),
        "cheerful": (
            "Here we are, {place}! Lovely, isn't it?",
            "Ta-da! {Place}! Wasn't that a nice little stroll?",
            "And this is {place}: {bit}. Shall I show you around?",
            "There we go, {place}! Mind the cobbles.",
            "Oh, I do love {place}! {Bit}!",
            "Here it is! {Bit}. Worth the walk, wasn't it?",
        ),
        "wise": (
            "Here is {place}. Every place has its story.",
            "We have arrived at {place}. Take your time here.",
            "{Place}: {bit}. Walk slowly, and you will see more.",
            "This is {place}, child. I remember it younger.",
            "{Bit}. I have known this spot for many years.",
            "And here we are. {Bit}. Breathe it in.",
        ),
        "quiet": (
            "{Place}. There.",
            "Here. {Bit}.",
            "This is {place}.",
            "{Place}. Quiet here.",
            "Here it is. {Bit}.",
        ),
        "curious": (
            "We made it! {Place}! Race you back!",
            "Here! {Place}! Isn't it great?",
            "Ta-da! {Place}! I come here to look for treasure!",
            "This is {place}! {Bit}! I know all the best spots!",
            "Look, look! {Bit}! Told you it was close!",
        ),
        "shrewd": (
            "Behold, {place}! No charge for the tour.",
            "Here we are, {place}. Good trade here, sometimes.",
            "{Place}, friend: {bit}. Worth the walk, eh?",
            "And here's {place}. Remember who guided you.",
            "{Bit}. A fine spot, if I say so myself.",
        ),
    },
    "go_person": {
        "gruff": (
            "There's {who}. Talk to them yourself.",
            "Found {who}. Happy? I've got work.",
            "{Who}, right there. Off you go.",
        ),
        "cheerful": (
            "Here's {who}! Say hello, don't be shy!",
            "Look who it is, {who}! Hello, hello!",
            "And here's {who}! Isn't this nice, all of us together?",
        ),
        "wise": (
            "Here is {who}. Speak, and listen.",
            "{Who} is here, as I thought we would find them.",
            "There, child. {Who}. Now you two may talk.",
        ),
        "quiet": ("{Who}. There.", "Here's {who}. I'll go.", "That's {who}. Over there."),
        "curious": (
            "Found {who}! Hi {who}! We were looking for you!",
            "There's {who}! Told you I knew the way!",
            "{Who}! We found you! It was a quest!",
        ),
        "shrewd": (
            "Ah, {who}! Good to see you. Your visitor, as promised.",
            "Here's {who}, delivered with the finest service on the road.",
            "{Who}, my friend! Someone wishes to see you.",
        ),
    },
    "follow": {
        "gruff": (
            "Fine. Lead on, but keep it short.",
            "Right behind you. Don't dawdle.",
            "Hmph. I'm coming. Where are we going?",
            "All right, I'll walk with you a bit.",
        ),
        "cheerful": (
            "Oh, an outing! Lead the way!",
            "Right behind you, friend!",
            "Coming, coming! Let me dust off the flour.",
            "Of course! A walk sounds lovely!",
        ),
        "wise": (
            "I will walk with you. Slowly, mind.",
            "Lead, child. These old legs will follow.",
            "Very well. Let us see where your path goes.",
            "I am coming. Company makes the road shorter.",
        ),
        "quiet": ("Mm. Coming.", "Okay. Lead.", "I'll follow.", "Sure. Quietly."),
        "curious": (
            "An adventure! I'm coming!",
            "Wait for me! Where are we going?",
            "Yes! Lead the way, I'll guard the rear!",
            "Coming! Is it a quest? It's a quest!",
        ),
        "shrewd": (
            "Lead on, friend. Opportunity awaits.",
            "Right with you! A merchant never misses a walk.",
            "Coming, coming. Is there profit at the end of it?",
            "After you, friend. I'll watch the purses.",
        ),
    },
    "go_self": {
        "gruff": ("You've found me. I'm right here.", "I'm standing in front of you."),
        "cheerful": ("Ha! You've found me already!", "I'm right here, silly!"),
        "wise": ("You have found me already, child.", "I am here. No walk needed."),
        "quiet": ("I'm here.", "Right here."),
        "curious": ("That's me! I'm right here!", "Hehe, you found me!"),
        "shrewd": ("You've found me! {Name}, at your service.", "Right here, friend!"),
    },
    "tour": {
        "gruff": ("This is {place}. That's the tour.", "{Place}. Seen it now."),
        "cheerful": ("Let's start with {place}! Isn't it lovely?", "First stop, {place}!"),
        "wise": ("Here is {place}. Let the village show itself.", "We begin at {place}."),
        "quiet": ("{Place}. That's it.", "Here. {Place}."),
        "curious": ("First stop, {place}! Best place ever!", "Tour time! This is {place}!"),
        "shrewd": ("The grand tour begins at {place}!", "Behold {place}, first of many wonders!"),
    },
    "away": {
        "gruff": ("Fine. I've work anyway.", "Suits me."),
        "cheerful": ("Oh! All right, I'll give you some room.", "Off I pop, then!"),
        "wise": ("As you wish. I will give you space.", "Very well, child."),
        "quiet": ("Fine.", "Okay."),
        "curious": ("Aww. Okay.", "Fine! I'll go find pebbles."),
        "shrewd": ("As you like. My cart awaits.", "I know when I'm not wanted, friend."),
    },
    "unknown_place": {
        "gruff": (
            "Never heard of it. No such place around here.",
            "Don't know that. There's nothing by that name worth a walk.",
            "No such thing here. I'd know, I've lived here all my life.",
            "I don't know where that is. You've got the wrong village.",
        ),
        "cheerful": (
            "Oh dear, I don't know that place! Sorry, friend!",
            "Hmm, never heard of it, friend. Not in this village!",
            "I'm afraid I don't know where that would be. Sorry!",
            "We've nothing like that here, I'm afraid. Only bread and good neighbours!",
        ),
        "wise": (
            "I know every stone of this village, and not that. It is not here.",
            "No such place here, child. Perhaps beyond the hills.",
            "I do not know it. Not every road leads somewhere.",
            "I do not know that place; it is not ours. Are you sure of its name?",
        ),
        "quiet": (
            "Don't know it.",
            "No such place here.",
            "Never heard of it.",
            "Not here. Don't know that one.",
        ),
        "curious": (
            "I don't know that place! Is it secret? Is it past the river?",
            "Never heard of it! Let's make it up! No wait, that's lying.",
            "Hmm, I don't know where that is. And I know everywhere!",
            "There's no such place here! Maybe it's in a story?",
        ),
        "shrewd": (
            "I don't know that place, and I've been everywhere, friend.",
            "Don't know it, friend. Not in this village; sounds like a rumour.",
            "Never heard of it. Can't sell you a map to nowhere.",
            "No such place here. Maybe a town past the mountains?",
        ),
    },
    "move_failed": {
        "gruff": ("Hmph. Can't get through that way.", "Path's blocked. Not today."),
        "cheerful": ("Oh dear, I can't get there right now!", "Goodness, the way's blocked!"),
        "wise": ("The way is closed to me just now.", "My legs cannot find a path there."),
        "quiet": ("Can't get there.", "Blocked."),
        "curious": ("Aww, I can't get past!", "It's blocked! Maybe by a dragon!"),
        "shrewd": ("Alas, the road is closed, friend.", "No way through, I'm afraid."),
    },
    "look_at": {
        "gruff": ("Hm. {Thing}. Looks as it always does.", "There's {thing}. What about it?"),
        "cheerful": ("Oh, {thing}! Isn't it lovely?", "Look at {thing}, how nice!"),
        "wise": ("{Thing}. I have looked at it a long time.", "Yes, {thing}. It has its story."),
        "quiet": ("{Thing}. Mm.", "I see {thing}."),
        "curious": ("Ooh, {thing}! What are we looking for?", "{Thing}! Is something there?"),
        "shrewd": ("Ah, {thing}. Worth a look, eh?", "{Thing}... I see value there."),
    },
    "look_you": {
        "gruff": ("I'm looking. You look tired.", "Aye, I see you. Now what?"),
        "cheerful": ("I see you! You look hungry, friend.", "There you are! Looking well!"),
        "wise": ("I see you, child. More than you think.", "I am looking. You seem thoughtful."),
        "quiet": ("I see you.", "Mm. Looking."),
        "curious": ("I'm looking! You look like an adventurer!", "Staring contest! Go!"),
        "shrewd": ("I see a discerning customer!", "I'm looking, friend. Fine boots."),
    },
    "look_around": {
        "gruff": (
            "Nothing out of place. Except you.",
            "All quiet. Bridge still standing, for now.",
            "I see a village that needs more honest work.",
        ),
        "cheerful": (
            "What a lovely day it is out here!",
            "Oh, look at the village, busy as a bakery!",
            "Everything's just as it should be!",
        ),
        "wise": (
            "The village is quiet. That is how I like it.",
            "Everything is as it was, and a little different.",
            "I see many years in these stones.",
        ),
        "quiet": ("All calm.", "Nothing stirring.", "Herons. Water. Quiet."),
        "curious": (
            "What? Where? Is it a dragon?",
            "I don't see anything! Wait, is that a shiny pebble?",
            "Ooh, I'm looking everywhere!",
        ),
        "shrewd": (
            "I see opportunities, friend. Everywhere.",
            "A fine little village. Quiet for trade, though.",
            "Nothing worth haggling over. Yet.",
        ),
    },
    "wait": {
        "gruff": (
            "Fine. I'll wait. Not long, mind.",
            "Hmph. Waiting. Iron's cooling.",
            "All right. Be quick about it.",
            "I'll stay put. Don't make a habit of it.",
        ),
        "cheerful": (
            "Of course! I'll wait right here!",
            "Take all the time you need, friend!",
            "No hurry at all! I'll be here.",
            "Waiting! Humming a little tune while I do.",
        ),
        "wise": (
            "I will wait. Patience costs me nothing.",
            "Take your time, child. I am not going anywhere.",
            "Waiting is an old friend of mine.",
            "Very well. I will be here.",
        ),
        "quiet": ("Okay. Waiting.", "Sure. I'll stay.", "Mm. Here.", "Fine. Take your time."),
        "curious": (
            "Okay! I'm waiting! Still waiting!",
            "I'll wait! But hurry, okay?",
            "Waiting! One, two, three...",
            "Sure! I'll count pebbles while I wait!",
        ),
        "shrewd": (
            "I'll wait, friend. Time is money, but you're worth it.",
            "Of course. My cart isn't going anywhere.",
            "Take your time. I'll polish a trinket or two.",
            "Waiting, waiting. The best deals come to those who do.",
        ),
    },
    "place": {
        "gruff": ("{Place}? {desc}", "That's {place}. {desc}", "{Place}. {desc} Can't miss it."),
        "cheerful": (
            "Oh, {place}! {desc}",
            "{Place}? {desc} You'll love it!",
            "Ah, {place}! {desc} Lovely spot.",
        ),
        "wise": (
            "{Place}. {desc}",
            "Ah, {place}. {desc} It has stood a long time.",
            "{Place}? {desc} Go and see it for yourself.",
        ),
        "quiet": ("{Place}. {desc}", "{desc}", "That's {place}. {desc}"),
        "curious": (
            "{Place}? {desc} I go there all the time!",
            "Ooh, {place}! {desc}",
            "{Place}! {desc} Want to go?",
        ),
        "shrewd": (
            "{Place}? {desc} Good trade there.",
            "Ah, {place}. {desc}",
            "{Place}, friend! {desc} Worth a visit.",
        ),
    },
    "place_mine": {
        "gruff": ("That's mine. {desc}", "My place. {desc} Come by if you need something made."),
        "cheerful": ("That's my place! {desc} Come by any time!", "Mine! {desc}"),
        "wise": ("That is my home. {desc}", "My own door. {desc}"),
        "quiet": ("Mine. {desc}", "That's where I am. {desc}"),
        "curious": ("That's where I live! {desc}", "My place! {desc}"),
        "shrewd": ("My stall! {desc} Finest in the village.", "That's where I trade. {desc}"),
    },
    "person_who": {
        "gruff": ("{Who}? {role}", "That'd be {who}. {role}", "{role} That's {who}."),
        "cheerful": ("Oh, that's {who}! {role}", "{Who}? {role} A dear!", "{role} That's {who}!"),
        "wise": ("{Who}. {role}", "That is {who}. {role}", "{role} I know {who} well."),
        "quiet": ("{Who}. {role}", "That's {who}.", "{role}"),
        "curious": ("That's {who}! {role}", "{Who}! {role}", "Oh, {who}! {role}"),
        "shrewd": ("{Who}, friend. {role}", "Ah, {who}! {role}", "That's {who}. {role}"),
    },
    "person_where": {
        "gruff": (
            "{Who}? At {home}, mostly.",
            "Try {home}. {Who} is usually there.",
            "{Who} keeps to {home}. Go look.",
        ),
        "cheerful": (
            "{Who}? You'll find them at {home}, usually!",
            "Try {home}! {Who} is almost always there.",
            "Oh, {who} is usually over at {home}!",
        ),
        "wise": (
            "{Who} is most often at {home}.",
            "Seek {who} at {home}, child.",
            "At {home}, I should think. {Who} keeps to it.",
        ),
        "quiet": ("{Home}. Usually.", "Try {home}.", "{Who}? {Home}."),
        "curious": (
            "{Who}? At {home}! I'll race you there!",
            "{Who} is at {home}, mostly! I know everyone's spots!",
            "Try {home}! That's where {who} lives!",
        ),
        "shrewd": (
            "{Who}? At {home}, friend. Tell them {name} sent you.",
            "You'll find {who} at {home}. Free advice.",
            "{Home}, usually. {Who} is a creature of habit.",
        ),
    },
    "person_opinion": {
        "gruff": (
            "{Who}? {role} Decent sort. Works hard, and that's what counts.",
            "{role} Talks more than I'd like, but honest.",
            "{Who}. {role} Never cheated me, and that's saying something.",
        ),
        "cheerful": (
            "Oh, {who}! {role} A treasure, I always save them a roll.",
            "{Who}? {role} The village wouldn't be the same without them!",
            "{role} I adore {who}, ask them about their day!",
        ),
        "wise": (
            "{Who}? {role} A good heart, though it sometimes hides.",
            "{role} I have watched {who} for many years; there is more there than you see.",
            "{Who}. {role} Ask them yourself, and listen well.",
        ),
        "quiet": ("{Who}? {role} All right.", "{role} Leaves me be.", "{Who}. Good sort. {role}"),
        "curious": (
            "{Who}? {role} {Who} is great! Well, mostly great.",
            "{role} I like {who}! Do you?",
            "{Who}! {role} They told me to stop asking questions once. I didn't.",
        ),
        "shrewd": (
            "{Who}? {role} A fine customer, and a finer neighbour.",
            "{role} {Who} drives a hard bargain. I respect that.",
            "Ah, {who}. {role} Knows the value of things, that one.",
        ),
    },
    "self_who": {
        "gruff": (
            "{Name}. I run {home}. That's all you need to know.",
            "Name's {name}. You'll find me at {home}, working.",
            "I'm {name}. I work. That's about it.",
        ),
        "cheerful": (
            "I'm {name}! You'll always find me at {home}!",
            "{Name}, at your service! Come and see me at {home}!",
            "Why, I'm {name}! Everybody knows me!",
        ),
        "wise": (
            "They call me {name}. My door is at {home}.",
            "I am {name}. I have lived here longer than most.",
            "{Name}, child. Ask anyone; they will tell you where I sit.",
        ),
        "quiet": ("{Name}.", "I'm {name}. At {home}, mostly.", "{Name}. Hi."),
        "curious": (
            "I'm {name}! I live at {home}! Who are you?",
            "{Name}! Future adventurer! What's your name?",
            "I'm {name}, and I know every corner of this village!",
        ),
        "shrewd": (
            "{Name}, trader of the roads! My stall is at {home}.",
            "I'm {name}, friend. Finest wares, fairest prices.",
            "{Name}, at your service. You'll find me at {home}.",
        ),
    },
    "self_work": {
        "gruff": ("{job}", "{job} Simple as that."),
        "cheerful": ("{job} Best job in the world!", "Oh, it's simple! {job}"),
        "wise": ("{job}", "{job} That is my work, and my joy."),
        "quiet": ("{job}", "{job} That's all."),
        "curious": ("{job} Cool, right?", "{job}"),
        "shrewd": ("{job} Business, friend.", "{job}"),
    },
    "self_like": {
        "gruff": ("{about}", "{about} That's the truth of it."),
        "cheerful": ("Oh, I do! {about}", "{about} Isn't life grand?"),
        "wise": ("{about}", "{about} It is a good life."),
        "quiet": ("{about}", "Mm. {about}"),
        "curious": ("{about} And you?", "Yes! {about}"),
        "shrewd": ("{about} A good life, on the whole.", "{about}"),
    },
    "self_about": {
        "gruff": ("{about}", "Not much to tell. {about}"),
        "cheerful": ("Oh, where to start! {about}", "Me? {about}"),
        "wise": ("{about}", "Ah, me. {about} That is enough for one day."),
        "quiet": ("{about}", "Not much to say. {about}"),
        "curious": ("Me? {about} Now you!", "{about}"),
        "shrewd": ("Ah, my story! {about}", "{about} But that's only the first chapter."),
    },
    "self_home": {
        "gruff": ("At {home}. {desc}", "{Home}. Where else?"),
        "cheerful": ("At {home}! {desc}", "{Home}, of course! Come and visit!"),
        "wise": ("My home is {home}. {desc}", "At {home}, child. {desc}"),
        "quiet": ("{Home}.", "{Home}. {desc}"),
        "curious": ("At {home}! {desc}", "{Home}! Come see!"),
        "shrewd": ("At {home}, for now. {desc}", "{Home}, friend. For now."),
    },
    "tell_name": {
        "gruff": (
            "{player}. Fine. I'm {name}.",
            "{player}, is it? I'll remember. I'm {name}.",
            "Hm. {player}. Good, solid name.",
        ),
        "cheerful": (
            "{player}! What a lovely name! I'm {name}!",
            "Pleased to meet you, {player}! I'm {name}!",
            "{player}! I'll remember that, I remember everyone's favourite pastry too!",
        ),
        "wise": (
            "{player}. A good name. I am {name}.",
            "Welcome, {player}. Names matter; I will keep yours.",
            "{player}. I will remember it, child.",
        ),
        "quiet": ("{player}. Okay. I'm {name}.", "{player}. Got it.", "Mm. {player}. Fine name."),
        "curious": (
            "{player}! That's a great name! I'm {name}!",
            "{player}? Cool! Is that an adventurer name?",
            "Hi {player}! I'm {name}! Want to be friends?",
        ),
        "shrewd": (
            "{player}! A name fit for a good customer. I'm {name}.",
            "Delighted, {player}. {Name}, at your service.",
            "{player}. I never forget a name, or a debt.",
        ),
    },
    "ask_name": {
        "gruff": ("You're {player}. I'm not deaf.", "{player}. You told me.", "It's {player}."),
        "cheerful": (
            "You're {player}, of course!",
            "{player}! How could I forget?",
            "Why, it's {player}!",
        ),
        "wise": ("You are {player}. I remember.", "{player}, child.", "Your name is {player}."),
        "quiet": ("{player}.", "You're {player}.", "It's {player}."),
        "curious": ("You're {player}! I remember!", "{player}! See, I listen!", "It's {player}!"),
        "shrewd": (
            "{player}, my friend.",
            "You're {player}. I never forget a name.",
            "Why, {player}, of course.",
        ),
    },
    "no_name": {
        "gruff": ("You never told me your name.", "Don't know. You didn't say."),
        "cheerful": ("Oh! You haven't told me your name yet!", "I don't know, you never said!"),
        "wise": ("You have not told me your name, child.", "Names are given. You have not."),
        "quiet": ("Didn't say.", "Don't know. You never told me."),
        "curious": ("I don't know! What is it? Tell me!", "You never said! What's your name?"),
        "shrewd": ("You haven't told me, friend.", "A mystery customer! What is it?"),
    },
    "recall": {
        "gruff": ("You said {said}.", "You told me {said}. I listen."),
        "cheerful": ("You said {said}! I remember!", "Oh, you told me {said}!"),
        "wise": ("You said {said}. I remember it.", "You told me {said}, child."),
        "quiet": ("You said {said}.", "{Said}. You said."),
        "curious": ("You said {said}! See, I remember!", "You told me {said}!"),
        "shrewd": ("You said {said}, friend.", "I recall you said {said}."),
    },
    "recall_none": {
        "gruff": ("You haven't told me much of anything.", "Don't recall. You didn't say."),
        "cheerful": ("Hmm, I don't think you've told me yet!", "You haven't said, friend!"),
        "wise": ("You have told me little yet.", "I do not recall you saying."),
        "quiet": ("You didn't say.", "Don't recall."),
        "curious": ("You didn't tell me! Tell me now!", "Hmm, you never said!"),
        "shrewd": ("You haven't said, friend.", "My memory is excellent. You didn't say."),
    },
    "heard": {
        "gruff": (
            "What is it, {speaker}?",
            "Aye, {speaker}, I hear you.",
            "{speaker}. Busy. Make it quick.",
            "Hmph. Later, {speaker}.",
        ),
        "cheerful": (
            "Yes, {speaker}? What is it, dear?",
            "Oh, {speaker}! Come by later for a bun!",
            "Right you are, {speaker}!",
            "Hello, {speaker}! Lovely to hear you!",
        ),
        "wise": (
            "I hear you, {speaker}.",
            "Yes, {speaker}. Patience, now.",
            "What is it, {speaker}?",
            "Hm. We shall see, {speaker}.",
        ),
        "quiet": ("Mm, {speaker}?", "Hi, {speaker}.", "Heard you, {speaker}.", "Shh, {speaker}."),
        "curious": (
            "What? What, {speaker}? Tell me!",
            "{speaker}! Did you see a dragon?",
            "Ooh, {speaker}! Is it exciting?",
            "Yes, {speaker}? I'm listening!",
        ),
        "shrewd": (
            "Ah, {speaker}! Interested in a trade?",
            "Yes, yes, {speaker}. I hear you.",
            "{speaker}, my friend! What news?",
            "Of course, {speaker}. Of course.",
        ),
    },
    "village": {
        "gruff": (
            "Small place. {Places}. That's the lot.",
            "There's {places}. Honest folk, mostly.",
        ),
        "cheerful": (
            "Oh, it's lovely here! We've {places}. Something for everyone!",
            "A cosy little village! {Places}, and me, of course!",
        ),
        "wise": (
            "A quiet village, older than it looks. {Places}. Each has its story.",
            "Walk it slowly: {places}. You will learn it soon enough.",
        ),
        "quiet": ("Quiet place. {Places}.", "{Places}. That's it."),
        "curious": (
            "It's the best! There's {places}! I've explored all of it!",
            "We've got {places}! And maybe a dragon!",
        ),
        "shrewd": (
            "A modest market town. {Places}. Good for a stop.",
            "Small, but pleasant: {places}. Not much trade, though.",
        ),
    },
    "seek": {
        "gruff": (
            "Haven't seen anything like that. I'll keep an eye out.",
            "Not around here, as far as I know. Ask at the market.",
        ),
        "cheerful": (
            "Oh dear! I haven't seen it, but I'll ask everyone who comes for bread!",
            "Hmm, not that I know of! I'll keep my eyes open for you!",
        ),
        "wise": (
            "I have not seen it. What is lost often finds its own way home.",
            "Not here, child. Ask around; this village notices everything.",
        ),
        "quiet": ("Haven't seen it.", "Not here. I'll watch for it."),
        "curious": (
            "Ooh, a search! I'll help! I'm great at finding things!",
            "I haven't seen it! But I'll look everywhere! Even under rocks!",
        ),
        "shrewd": (
            "Haven't seen it, friend. If it turns up, I'll let you know. For a small fee.",
            "Not on my cart, I'm afraid. I'll keep my ears open.",
        ),
    },
    "sad": {
        "gruff": (
            "Hmph. Sit by the fire a while. It helps.",
            "Chin up. Bad days cool off, like iron.",
        ),
        "cheerful": (
            "Oh, you poor thing! Here, have a warm bun, it helps, I promise.",
            "Aww, come here. Nothing a cup of tea and a slice of cake can't mend.",
        ),
        "wise": (
            "Sorrow passes, child, like clouds over the pond.",
            "Sit with me. Heavy things are lighter when shared.",
        ),
        "quiet": ("Sit. Water helps.", "Mm. Stay a while. It's calm here."),
        "curious": (
            "Oh no! Do you want one of my shiny pebbles? It's lucky!",
            "Don't be sad! Let's go on an adventure, that always helps!",
        ),
        "shrewd": (
            "Chin up, friend. Fortune turns, I've seen it a hundred times.",
            "Ah, the road is hard sometimes. Here, this trinket's free. Just this once.",
        ),
    },
    "glad": {
        "gruff": ("Good. Keep it that way.", "Hmph. Glad to hear it."),
        "cheerful": ("Oh, how wonderful! That makes two of us!", "Ha! Happy folk, happy bread!"),
        "wise": ("Good. Remember this feeling on grey days.", "Joy is worth sharing. Thank you."),
        "quiet": ("Good.", "Mm. Nice."),
        "curious": ("Yay! Me too! Let's celebrate!", "Woo! That's the best!"),
        "shrewd": ("Splendid! A good mood is good for business.", "Excellent, friend!"),
    },
    "idle": {
        "gruff": (
            "This blade won't sharpen itself.",
            "Hmph. Bridge creaked again this morning.",
            "{who}. Keep your hands off the tongs.",
            "Honest work, {who}. That's what fixes things.",
        ),
        "cheerful": (
            "Smell that? The rye is nearly ready!",
            "Morning, {who}! Saved you a honey bun.",
            "What a day for baking. What a day for anything!",
            "{who}, have you tried the plum tarts yet?",
        ),
        "wise": (
            "The wind is turning. Change is coming.",
            "{who}, do you remember the winter the river froze?",
            "Patience. The well fills one drop at a time.",
            "Hm. Every path in this village has a story.",
        ),
        "quiet": ("...Hm.", "The herons are back.", "{who}. Quiet today.", "Water's calm."),
        "curious": (
            "I found a shiny pebble! Look, {who}!",
            "Do you think dragons like bread?",
            "{who}! Have you ever been past the river?",
            "One day I'll be a real adventurer.",
        ),
        "shrewd": (
            "Fine wares! Finer prices! Well... fine prices.",
            "{who}, a trinket from the mountains? Special price.",
            "Business is slow, but the stories are free.",
            "Nice village. Never stay too long anywhere.",
        ),
    },
    "again": {
        "gruff": ("You again. What is it?", "Back, are you. Speak up.", "Hmph. Yes?"),
        "cheerful": ("Oh, hello again! Hungry yet?", "You're back! Wonderful!", "Hello again!"),
        "wise": ("Ah, you return. Good.", "Welcome back, child.", "You have returned."),
        "quiet": ("...Hello.", "Hi again.", "Mm. You."),
        "curious": ("You're back! Tell me everything!", "Hi again! Hi!", "You came back!"),
        "shrewd": ("My favourite customer returns!", "Back for more, friend?", "Ah, welcome back!"),
    },
}


def line_table(kind: str, mood: str) -> tuple[str, ...]:
    """The lines of a mood for one kind of reply (the cheerful ones if the mood has none)."""
    table = _T[kind]
    return table.get(mood) or table["cheerful"]


def overlap(a: str, b: str) -> float:
    """How much two lines say the same: the larger share of one's word pairs found in the
    other (0: nothing shared, 1: one is within the other)."""
    return max(share(a, b), share(b, a))


def _fill(line: str, facts: Mapping[str, str]) -> str | None:
    """A line with its slots filled from `facts`; None if it needs a fact not given.
    `{Slot}` puts the fact with a capital first letter."""
    missing = False

    def put(match: re.Match[str]) -> str:
        nonlocal missing
        key = match.group(1)
        value = facts.get(key.lower())
        if not value:
            missing = True
            return ""
        return value[0].upper() + value[1:] if key[0].isupper() else value

    text = re.sub(r"\{(\w+)\}", put, line)
    return None if missing else " ".join(text.split())


def pick(
    lines: Iterable[str],
    seed: int,
    used: Iterable[str] = (),
    facts: Mapping[str, str] | None = None,
    *,
    limit: float = 0.5,
) -> str:
    """One of `lines`, chosen by `seed`, filled with `facts`: the first one from the seed
    on that overlaps nothing in `used` by more than `limit`, else the least overlapping."""
    facts = facts or {}
    options = [t for t in (_fill(line, facts) for line in lines) if t]
    if not options:
        return ""
    used = [u for u in used if u]
    start = seed % len(options)
    ordered = options[start:] + options[:start]
    best, best_score = ordered[0], 2.0
    for text in ordered:
        score = max((overlap(text, u) for u in used), default=0.0)
        if score <= limit:
            return clip(text)
        if score < best_score:
            best, best_score = text, score
    return clip(best)


def clip(text: str, size: int = 200) -> str:
    """At most `size` characters, cut at the end of a sentence (or word) if it must be."""
    text = " ".join(text.split())
    if len(text) <= size:
        return text
    cut = text[:size]
    end = max(cut.rfind(". "), cut.rfind("! "), cut.rfind("? "))
    if end > size // 3:
        return cut[: end + 1]
    return cut[: cut.rfind(" ")].rstrip(",;:-") + "."


def sentences(text: str) -> list[str]:
    """The sentences of a persona or description."""
    return [s for s in re.split(r"(?<=[.!?])\s+", " ".join(text.split())) if s]


# --- the persona in the first person ----------------------------------------------------

_IRREGULAR = {"is": "am", "has": "have", "does": "do", "was": "was", "goes": "go"}
_OBJECT_AFTER = frozenset(
    "and or but to with for about of in on at by from than as when while so if . , ; :".split()
)


_NOT_VERBS = frozenset(
    """its this always sometimes perhaps was towards afterwards besides nowadays whereas thus
    yes whose hers ours yours theirs news series""".split()
)


def _base_verb(word: str) -> str:
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if re.search(r"(?:ss|sh|ch|x|zz|o)es$", word):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def first_person(text: str, name: str) -> str:
    """A persona sentence as the NPC would say it of itself ("Wren is a quiet fisher who
    spends her days on the dock" -> "I'm a quiet fisher who spends my days on the dock")."""
    names = [n for n in {name, name.split()[-1]} if n]
    out = text
    for n in sorted(names, key=len, reverse=True):
        out = re.sub(rf"\b{re.escape(n)}'s\b", "my", out)
        out = re.sub(rf"\b{re.escape(n)} is\b", "I am", out)
        out = re.sub(rf"\b{re.escape(n)} has\b", "I have", out)
        out = re.sub(rf"\b{re.escape(n)}\b", "I", out)
    # He and she are the NPC (a persona speaks of no one else that way); "they" may not be.
    out = re.sub(r"\b(?:She|He) is\b", "I am", out)
    out = re.sub(r"\b(?:she|he) is\b", "I am", out)
    out = re.sub(r"\b(?:She|He)\b", "I", out)
    out = re.sub(r"\b(?:she|he)\b", "I", out)
    out = re.sub(r"\bhis\b", "my", out)
    out = re.sub(r"\bHis\b", "My", out)
    out = re.sub(r"\bhim\b", "me", out)
    out = re.sub(r"\b(?:himself|herself)\b", "myself", out)
    out = re.sub(r"\bher\b(?=\s*(?:[.,;:!?]|$))", "me", out)
    out = re.sub(
        r"\bher\b(?=\s+(\w+))",
        lambda m: "me" if (m.group(1) or "") in _OBJECT_AFTER else "my",
        out,
    )
    out = re.sub(r"\bHer\b", "My", out)
    # The verbs of I: "I bakes ... and stays" -> "I bake ... and stay".
    out = re.sub(
        r"\bI (always |never |often |quietly |still |also |just |really )?(\w+)\b",
        lambda m: f"I {m.group(1) or ''}{_base_verb(m.group(2))}",
        out,
    )
    # And the verbs joined to them: "..., answers questions", "... and is certain".
    return re.sub(r"\bI am\b", "I'm", _joined_verbs(out), count=1)


_ADVERBS = frozenset("always never often quietly still also just really sometimes".split())


def _joined_verbs(text: str) -> str:
    """After "I <verb>", the verbs joined by a comma, "and", "but" or "or" lose their -s.
    A word in a list of things ("buns and cakes.") is followed by a comma, "and" or the
    end, and is left alone."""
    out: list[str] = []
    for sentence in re.split(r"(?<=[.;:!?])\s+", text):
        words = sentence.split(" ")
        subject = False
        for i, word in enumerate(words):
            if word == "I":
                subject = True
                continue
            if not subject or i == 0:
                continue
            joined = words[i - 1].endswith(",") or words[i - 1] in ("and", "but", "or")
            j = i
            if joined and word in _ADVERBS and i + 1 < len(words):
                j = i + 1
            candidate = words[j]
            follow = words[j + 1] if j + 1 < len(words) else ""
            if (
                joined
                and re.fullmatch(r"[a-z]+s", candidate)
                and candidate not in _NOT_VERBS
                and not candidate.endswith(("ous", "ss", "us"))
                and (candidate == "is" or not candidate.endswith("is"))
                and follow not in ("and", "or", "")
            ):
                words[j] = _base_verb(candidate)
        out.append(" ".join(words))
    return " ".join(out)
