"""The offline fact extractor: regular patterns for explicit first-person statements.

It runs when no LLM is configured, so memory still learns the plainest facts a user states
about themselves. It is deliberately narrow: a wrong fact in memory is worse than a missing
one, so every pattern needs an explicit first-person cue and an object that looks like one.

What it catches (subject = the speaker):
  name        "my name is Dana", "I'm Dana", "call me Dana" (capitalised words, not "I'm Sorry")
  lives_in    "I live in / I'm living in / I'm based in / I moved to / I relocated to X"
  comes_from  "I'm from X", "I come from X"
  works_at    "I work at/for X", "I'm working at X", "I started a new job at X", "I got a job
              at X"; weaker, and only with job words in the sentence: "I joined X", "I started
              at X", "I switched jobs to X", "I'm at X now"
  occupation  "I work as a nurse", "I'm a software engineer" (a known occupation noun)
  likes       "I like/love/enjoy/adore/prefer X", "my favourite food is X", "I'm a fan of X"
  dislikes    "I hate/dislike/detest/can't stand/don't like X"
  allergic_to "I'm allergic to X", "I have a peanut allergy"
  email/phone "my email is …", "my phone number is …", "reach me at …"
  age         "I'm 34 (years old)", "I just turned 34"
Places and organisations must start with a capital letter ("I work at a startup" is nothing).
"when"-words in the sentence ("last month", "in August") give ``valid_from`` when the
sentence describes a change (moved, started, switched, now…); "actually", "correction" or
"I meant" without such a change mark a correction of a single-valued fact.

What it misses, by design or by limit:
  - negations and endings: "I don't live in Paris anymore" retracts nothing, and neither does
    anything else here: the offline extractor only ever proposes, never retracts;
  - the past and the future: "I used to live in Berlin", "I'm moving to Rome next month";
  - anyone but the speaker: "we live in Porto", "my sister Ana lives in Porto", "you're…";
  - hedged or asked: "I think I'm allergic to…", "if I like it…", "Did I say I live in…?";
  - lists after the first item: "I'm allergic to peanuts and shellfish" gives peanuts only,
    and names with "and" in them are cut there ("Marks and Spencer" gives Marks);
  - a subject left out: "I moved to Berlin and started working at Zalando" gives Berlin only;
  - lower-case names and places ("i live in lisbon"), and likes with "the" ("I can't stand
    the humidity"), dropped with the deictic ones ("I like the second one");
  - anything phrased another way: paraphrase is the LLM extractor's job.
An object keeps the speaker's words, but not their first person: "I love camping trips with
my fam" said by Melanie is "camping trips with Melanie's fam".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from graphmem.core.time_expressions import find_time_range
from graphmem.pipelines.candidates import Candidate

_I_AM = r"\bI(?:'?m|\s+am)"
_I_HAVE = r"\bI(?:'ve|\s+have)?"
_ADVERB = r"(?:(?:just|now|currently|still|also|actually|really|recently|finally)\s+)?"
_MONTHS = ("january|february|march|april|may|june|july|august|september|october|november|"
           "december")
_WEEKDAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"

# Weaker patterns ("I'm at Globex now") count for a little less than explicit ones.
_WEAK = 0.85

# --- Sentences and clauses -----------------------------------------------------------------

# A run of marks ends a sentence from its first mark only: tried at every mark of a run
# instead, 64,000 dots without a space took 41 s (quadratic).
_SENTENCE_END = re.compile(r"(?<![.!?])[.!?]+(?=\s)|\n+")
# A full stop after these does not end a sentence ("I live in St. Louis").
_ABBREVIATIONS = frozenset({"st", "mr", "mrs", "ms", "dr", "jr", "sr", "prof", "inc", "ltd",
                            "co", "corp", "vs", "etc", "e.g", "i.e", "mt", "ave"})
_LAST_WORD_WINDOW = 8  # longer than any abbreviation, and than an initial
# Clauses end at punctuation and at conjunctions; "my email is: x" keeps its colon.
_CLAUSE_BREAK = re.compile(
    r"\s*[,;](?!\d)\s*|(?<!\bis):\s+|\s+[-–—]+\s+"
    r"|\s+(?:and|but|so|because|though|although|whereas|while|plus)\s+",
    re.IGNORECASE)
# A clause of a question that is itself asked ("Is it true that I live in Paris, or not?").
_ASKING = re.compile(
    r"^(?:do|does|did|is|are|am|was|were|can|could|would|will|should|have|has|what|why|how|"
    r"when|where|who|which|isn't|aren't|don't|didn't)\b",
    re.IGNORECASE)
# Words before the "I" that make the statement hypothetical, reported, denied or doubted.
_HEDGE = re.compile(
    r"\b(?:if|whether|unless|maybe|perhaps|think|thinks|thought|guess|suppose|hope|wish|"
    r"pretend|pretending|imagine|assume|believe|believes|doubt|not|never|doesn't|"
    r"didn't|would|could|should|might)\b|\bdo(?:n't|nt|\s+not)\b(?!\s+forget)",
    re.IGNORECASE)

# --- Sentence context ----------------------------------------------------------------------

_CORRECTION = re.compile(r"\bactually\b|\bcorrection\b|\bI\s+meant\b|\bI\s+misspoke\b",
                         re.IGNORECASE)
# A change in the world: a new value from some time on, not a fix of an old mistake.
_CHANGE = re.compile(
    r"\b(?:move|moved|relocated|switched|changed|started|joined|hired|turned|quit|left|new|now|"
    r"anymore|since)\b|\bany\s+more\b|\bno\s+longer\b",
    re.IGNORECASE)
_JOB_WORDS = re.compile(
    r"\b(?:job|jobs|employer|employers|company|companies|hired|role|position|career|gig|"
    r"offer)\b|\bas\s+an?\s+\w+",  # "I joined Acme as a designer"
    re.IGNORECASE)
# Facts with one value at a time: only these can be corrected outright.
_SINGLE_VALUED = frozenset({"name", "lives_in", "comes_from", "works_at", "occupation", "email",
                            "phone", "age"})

# --- Objects -------------------------------------------------------------------------------

_TIME_TAIL = (
    r"\s+(?:last|this|next|past|previous)\s+\w+"
    rf"|\s+(?:in|on|since|from|until|till|by|around|starting)\s+"
    rf"(?:\d|(?:{_MONTHS}|{_WEEKDAYS})\b|(?:the\s+)?(?:spring|summer|autumn|fall|winter)\b)"
    r"|\s+(?:yesterday|today|tonight|tomorrow|recently|lately|earlier)\b"
    r"|\s+(?:\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|a\s+couple\s+of)"
    r"\s+(?:minute|hour|day|week|month|year)s?\s+ago\b"
    r"|\s+(?:on|at|during|in|every|each)\s+(?:the\s+)?(?:weekends?|weekdays?|nights?|"
    r"mornings?|evenings?|afternoons?)\b|\s+every\s+\w+"
    r"|\s*\(")
# Where a place or organisation ends: "Lisbon with my wife", "Acme as a designer".
_PROPER_CUT = re.compile(
    _TIME_TAIL + r"|\s+(?:and|but|because|so|as|when|while|where|which|who|that|with|for|"
    r"from|after|before|until|though|not|or|in|on|at|near|to|via|since)\b",
    re.IGNORECASE)
# Where a liked thing ends: "dogs more than cats", "books that make me cry".
_TOPIC_CUT = re.compile(
    _TIME_TAIL + r"|\s+(?:and|but|because|so|when|whenever|while|which|who|that|if|unless|"
    r"though|although|over|than|rather\s+than|instead\s+of|more|better)\b",
    re.IGNORECASE)
_PREFER_CUT = re.compile(_TOPIC_CUT.pattern + r"|\s+to\b", re.IGNORECASE)  # "tea to coffee"
_ROLE_CUT = re.compile(
    _TIME_TAIL + r"|\s+(?:and|but|at|for|in|with|on|from|by|since|who|which|because)\b",
    re.IGNORECASE)
_FILLER_TAIL = re.compile(
    r"\s+(?:now|right\s+now|these\s+days|nowadays|too|as\s+well|also|again|anymore|already|"
    r"currently|at\s+the\s+moment|for\s+now|though|lol|haha|btw|by\s+the\s+way|actually|"
    r"really|a\s+lot|so\s+much|very\s+much|honestly|tbh)$",
    re.IGNORECASE)
_PUNCTUATION = " \t.,;:!?\"'`…)*_~"

# First words that make an object deictic or not an object at all ("I like it", "I love
# how…", "I prefer option B", "I like my coffee black").
_NOT_OBJECT = frozenset({
    "it", "its", "it's", "that", "this", "these", "those", "them", "they", "you", "your",
    "yours", "him", "her", "his", "me", "my", "mine", "us", "our", "their", "myself", "what",
    "how", "when", "where", "why", "which", "who", "to", "the", "a", "an", "both", "all",
    "everything", "nothing", "anything", "something", "some", "any", "each", "either",
    "neither", "option", "version", "idea", "plan", "one", "ones", "way", "so", "such", "more",
    "most", "less", "much", "many", "lots", "lot", "being", "doing", "having", "here", "there",
    "home", "work", "school", "least", "not", "no",
    # A verb: "I love" closed a relative clause ("doing something I love is awesome").
    "is", "was", "are", "were", "am", "be", "been", "has", "had", "have", "will", "would",
    "can", "could", "should", "makes", "made", "gives", "keeps",
})
# The speaker's own words inside an object ("camping trips with my fam"): read from the fact
# alone, "my" would be whoever reads it.
_FIRST_PERSON = re.compile(r"\b(?:(?P<own>my|mine)|me|myself|I(?!'))\b")
_NOT_A_ROLE = frozenset({"former", "ex", "retired", "aspiring", "future", "wannabe",
                         "would-be", "failed"})
# Head nouns that make "I'm a …" an occupation rather than "I'm a big fan" or "a morning person".
_OCCUPATIONS = frozenset({
    "engineer", "developer", "programmer", "designer", "nurse", "doctor", "physician",
    "surgeon", "dentist", "pharmacist", "therapist", "psychologist", "psychiatrist", "teacher",
    "professor", "lecturer", "tutor", "lawyer", "attorney", "paralegal", "accountant",
    "student", "manager", "scientist", "researcher", "analyst", "consultant", "writer",
    "author", "journalist", "editor", "translator", "architect", "chef", "cook", "baker",
    "barista", "waiter", "waitress", "bartender", "artist", "musician", "photographer",
    "electrician", "plumber", "mechanic", "carpenter", "driver", "pilot", "firefighter",
    "paramedic", "vet", "veterinarian", "farmer", "founder", "cofounder", "co-founder", "ceo",
    "cto", "cfo", "coo", "director", "administrator", "intern", "freelancer", "contractor",
    "librarian", "cashier", "realtor", "banker", "economist", "statistician", "technician",
    "coordinator", "specialist", "assistant", "secretary", "receptionist", "entrepreneur",
    "mathematician", "physicist", "chemist", "biologist", "officer", "soldier", "policeman",
    "policewoman", "midwife", "caregiver", "cleaner", "janitor", "clerk", "recruiter",
    "marketer", "salesman", "saleswoman", "salesperson", "broker", "trader", "investor",
    "actor", "actress", "dancer", "singer", "composer", "producer", "illustrator", "animator",
    "postdoc", "resident", "surveyor", "optometrist", "physiotherapist", "counselor",
    "counsellor", "lead", "sysadmin", "hairdresser", "tailor", "welder",
})

# Capitalised words after "I'm" that are not names: states, adverbs, nationalities, days…
_NOT_A_NAME_WORDS = """
sorry fine good great here back not so just also really going sure happy tired glad okay ok
done ready still very always never afraid busy excited interested looking trying thinking
working living doing feeling hungry thirsty sick ill home in on out off well alright all only
pretty actually currently now moving planning allergic from at a an the your his her their
our with new free available late early confused stuck lost curious worried bored thrilled
honest serious kidding joking aware cool hopeful single married divorced engaged pregnant
vegan vegetarian retired unemployed proud grateful thankful impressed disappointed certain
positive sad angry upset scared nervous anxious stressed exhausted sleepy awake alive fit
healthy right wrong correct glad relieved surprised amazed annoyed frustrated overwhelmed
pleased calm safe ready late almost about sort kind totally definitely probably maybe
hungover jealous lucky blessed okay fed fully kinda quite rather somewhat too also even
english british american french german spanish portuguese italian canadian brazilian
chinese japanese indian irish scottish welsh dutch swedish norwegian danish finnish polish
russian ukrainian mexican australian korean greek turkish swiss austrian belgian african
european asian latino latina catholic jewish muslim hindu buddhist atheist gay straight
monday tuesday wednesday thursday friday saturday sunday today tomorrow tonight
january february march april may june july august september october november december
mr mrs ms dr sir madam god
"""
_NOT_A_NAME = frozenset(_NOT_A_NAME_WORDS.split())
_NAME_TAIL = re.compile(r"\s+(?:here|btw|by\s+the\s+way|from\s+.+)$", re.IGNORECASE)
_NAME_WORD = re.compile(r"[^\W\d_]+(?:['-][^\W\d_]+)*")


def _cut(text: str, boundary: re.Pattern[str]) -> str:
    match = boundary.search(text)
    return text[: match.start()] if match else text


def _trim(text: str) -> str:
    """Drops trailing punctuation and filler ("now", "too") until neither is left."""
    while True:
        trimmed = _FILLER_TAIL.sub("", text.strip(_PUNCTUATION)).strip(_PUNCTUATION)
        if trimmed == text:
            return text
        text = trimmed


def _not_an_object(words: list[str]) -> bool:
    """ "it", "the one", "my coffee"…; but "The Beatles" and "The Hague" are names."""
    if words[0][0].isupper() and len(words) > 1:
        return False
    return words[0].lower() in _NOT_OBJECT


def _proper(text: str) -> str | None:
    """A place or organisation: a few words, the first one capitalised."""
    value = _trim(_cut(text, _PROPER_CUT))
    value = re.sub(r"^the\s+", "", value)  # "the Netherlands"; "The Hague" keeps its article
    words = value.split()
    if not 1 <= len(words) <= 5 or _not_an_object(words):
        return None
    return value if words[0][0].isupper() else None


def _topic(text: str, boundary: re.Pattern[str] = _TOPIC_CUT) -> str | None:
    """A liked, disliked or allergenic thing: a few words that are not "it" or "the one"."""
    value = _trim(_cut(text, boundary))
    words = value.split()
    if not 1 <= len(words) <= 5 or _not_an_object(words):
        return None
    return None if " or " in value.lower() else value


def _preferred(text: str) -> str | None:
    return _topic(text, _PREFER_CUT)


def _role(text: str) -> str | None:
    """What someone works as: "(a) senior software engineer"."""
    value = re.sub(r"^an?\s+", "", _trim(_cut(text, _ROLE_CUT)), flags=re.IGNORECASE)
    words = value.split()
    if not 1 <= len(words) <= 4 or {word.lower() for word in words} & _NOT_A_ROLE:
        return None
    return None if words[0].lower() in _NOT_OBJECT else value


def _occupation(text: str) -> str | None:
    """ "I'm a …" is an occupation only when it ends in a known occupation noun."""
    value = _role(text)
    if value is None or value.split()[-1].lower() not in _OCCUPATIONS:
        return None
    return value


def _name(text: str) -> str | None:
    """One to three capitalised words that are all of the rest of the clause."""
    value = _trim(_NAME_TAIL.sub("", _trim(text)))
    words = value.split()
    if not 1 <= len(words) <= 3:
        return None
    for word in words:
        if not _NAME_WORD.fullmatch(word) or word.lower() in _NOT_A_NAME:
            return None
        # Capitalised but not shouted ("OK", "USA"); no possessives ("I'm Dana's mum").
        if not word[0].isupper() or word.isupper() or word.lower().endswith("'s"):
            return None
        if len(word) > 5 and word.lower().endswith("ing"):  # "I'm Starving", "I'm Leaving"
            return None
    return value


def _literal(text: str) -> str | None:
    value = text.strip(_PUNCTUATION)
    return value or None


def _phone(text: str) -> str | None:
    value = text.strip(_PUNCTUATION + " -")
    return value if sum(char.isdigit() for char in value) >= 7 else None


def _age(text: str) -> str | None:
    return text if 0 < int(text) < 120 else None


@dataclass(frozen=True)
class _Pattern:
    predicate: str
    regex: re.Pattern[str]  # its "obj" group is the object's raw text
    read: Callable[[str], str | None]  # the object from that text, or None to drop the match
    is_entity: bool = True
    weak: bool = False  # counts for _WEAK of the confidence
    needs_job_words: bool = False  # only when the sentence talks about jobs


def _p(predicate: str, regex: str, read: Callable[[str], str | None], **options: bool) -> _Pattern:
    return _Pattern(predicate, re.compile(regex, re.IGNORECASE), read, **options)


_EMAIL = r"(?P<obj>[\w.+-]+@[\w-]+(?:\.[\w-]+)+)"
_PHONE_NUMBER = r"(?P<obj>\+?\(?\d[\d\s().-]{5,20}\d)"
_AGE_END = (r"(?:\s+(?:years?|yrs?)(?:\s+old)?|\s*(?:yo|y/o))?"
            r"(?:\s+(?:now|today|yesterday|(?:last|this)\s+(?:week|month|year)))?[\s.!]*$")
_NAME_CAPS = r"(?P<obj>(?-i:[^\W\d_a-z]).*)"  # the first letter must be a capital

_PATTERNS: tuple[_Pattern, ...] = (
    _p("name", r"\bmy\s+name(?:\s+is|'s)\s+:?\s*" + _NAME_CAPS, _name, is_entity=False),
    _p("name", _I_AM + r"\s+" + _NAME_CAPS, _name, is_entity=False),
    _p("name", r"\b(?:call|calls)\s+me\s+" + _NAME_CAPS, _name, is_entity=False),
    _p("lives_in", r"\bI\s+" + _ADVERB + r"live\s+in\s+(?P<obj>.+)", _proper),
    _p("lives_in", _I_AM + r"\s+" + _ADVERB + r"(?:living|based)\s+(?:in|out\s+of)\s+(?P<obj>.+)",
       _proper),
    _p("lives_in", r"\bI've\s+been\s+living\s+in\s+(?P<obj>.+)", _proper),
    _p("lives_in", _I_HAVE + r"\s+" + _ADVERB + r"(?:moved|relocated)\s+(?:back\s+)?to\s+"
       r"(?P<obj>.+)", _proper),
    _p("comes_from", _I_AM + r"\s+(?:originally\s+)?from\s+(?P<obj>.+)", _proper),
    _p("comes_from", r"\bI\s+(?:originally\s+)?come\s+from\s+(?P<obj>.+)", _proper),
    _p("works_at", r"\bI\s+" + _ADVERB + r"work\s+(?:at|for)\s+(?P<obj>.+)", _proper),
    _p("works_at", r"(?:" + _I_AM + r"|\bI've\s+been)\s+" + _ADVERB + r"working\s+(?:at|for)\s+"
       r"(?P<obj>.+)", _proper),
    _p("works_at", _I_HAVE + r"\s+" + _ADVERB + r"(?:started|got)\s+(?:a\s+)?(?:new\s+)?"
       r"(?:job|role|position|gig)\s+(?:at|with|for)\s+(?P<obj>.+)", _proper),
    _p("works_at", _I_HAVE + r"\s+" + _ADVERB + r"started\s+(?:working|work)\s+(?:at|for)\s+"
       r"(?P<obj>.+)", _proper),
    _p("works_at", r"\bI\s+(?:just\s+)?got\s+hired\s+(?:at|by)\s+(?P<obj>.+)", _proper),
    _p("works_at", _I_HAVE + r"\s+" + _ADVERB + r"started\s+at\s+(?P<obj>.+)", _proper,
       weak=True, needs_job_words=True),
    _p("works_at", _I_HAVE + r"\s+" + _ADVERB + r"joined\s+(?P<obj>.+)", _proper,
       weak=True, needs_job_words=True),
    _p("works_at", _I_HAVE + r"\s+" + _ADVERB + r"switched\s+(?:jobs\s+|companies\s+)?to\s+"
       r"(?P<obj>.+)", _proper, weak=True, needs_job_words=True),
    _p("works_at", _I_AM + r"\s+(?:now|currently)\s+at\s+(?P<obj>.+)", _proper,
       weak=True, needs_job_words=True),
    _p("works_at", _I_AM + r"\s+at\s+(?P<obj>(?-i:[A-Z])[^,;:]*?)\s+(?:now|these\s+days|"
       r"nowadays)\b", _proper, weak=True, needs_job_words=True),
    _p("occupation", r"\bI(?:'?m|\s+am)?\s+" + _ADVERB + r"(?:work|working)\s+as\s+(?P<obj>.+)",
       _role, is_entity=False),
    _p("occupation", _I_AM + r"\s+" + _ADVERB + r"(?P<obj>an?\s+.+)", _occupation,
       is_entity=False),
    _p("likes", r"\bI\s+(?:(?:really|absolutely|also|just|do|totally|genuinely|still)\s+){0,2}"
       r"(?:like|love|enjoy|adore)\s+(?P<obj>.+)", _topic),
    _p("likes", r"\bI\s+" + _ADVERB + r"prefer\s+(?P<obj>.+)", _preferred),
    _p("likes", r"\bmy\s+(?:all[- ]time\s+)?favou?rite(?:\s+[\w\s-]{1,30}?)?\s+(?:is|are)\s+"
       r"(?P<obj>.+)", _topic),
    _p("likes", _I_AM + r"\s+(?:a\s+)?(?:big\s+|huge\s+)?fan\s+of\s+(?P<obj>.+)", _topic),
    _p("dislikes", r"\bI\s+" + _ADVERB + r"(?:hate|dislike|detest|loathe|can't\s+stand|"
       r"cannot\s+stand|(?:don't|do\s+not)\s+(?:really\s+)?(?:like|enjoy))\s+(?P<obj>.+)", _topic),
    _p("allergic_to", _I_AM + r"\s+(?:(?:also|very|severely|highly|seriously|really|mildly|"
       r"slightly)\s+)?allergic\s+to\s+(?P<obj>.+)", _topic),
    _p("allergic_to", r"\bI\s+have\s+an?\s+(?P<obj>[\w-]+(?:\s+[\w-]+)?)\s+allergy\b", _topic),
    _p("email", r"\bmy\s+(?:new\s+|work\s+|personal\s+|current\s+)?e-?mail(?:\s+address)?"
       r"(?:\s+is|'s)\s*:?\s*" + _EMAIL, _literal, is_entity=False),
    _p("email", r"\b(?:e-?mail|reach|contact)\s+me\s+at\s+" + _EMAIL, _literal, is_entity=False),
    _p("phone", r"\bmy\s+(?:new\s+|work\s+|personal\s+|current\s+|home\s+)?"
       r"(?:(?:phone|mobile|cell|telephone)(?:\s+number)?|number)(?:\s+is|'s)\s*:?\s*"
       + _PHONE_NUMBER, _phone, is_entity=False),
    _p("phone", r"\b(?:call|text|reach)\s+me\s+(?:at|on)\s+" + _PHONE_NUMBER, _phone,
       is_entity=False),
    _p("age", _I_AM + r"\s+(?:now\s+)?(?P<obj>\d{1,3})" + _AGE_END, _age, is_entity=False),
    _p("age", r"\bI\s+(?:just\s+)?turned\s+(?P<obj>\d{1,3})" + _AGE_END, _age, is_entity=False),
)


@dataclass(frozen=True)
class _Sentence:
    text: str
    correction: bool
    valid_from: datetime | None
    job_words: bool


def extract(episode_id: str, content: str, speaker: str, said_at: datetime,
            confidence: float = 0.6) -> list[Candidate]:
    """Facts the speaker states about themselves in ``content``, in order, without repeats."""
    found: list[Candidate] = []
    seen: set[tuple[str, str]] = set()
    for text in _sentences(_normalise(content)):
        sentence = _read_sentence(text, said_at)
        for candidate in _from_sentence(sentence, episode_id, speaker, confidence):
            key = (candidate.predicate, candidate.object.casefold())
            if key not in seen:
                seen.add(key)
                found.append(candidate)
    return found


def _normalise(content: str) -> str:
    return content.replace("\u2019", "'").replace("\u2018", "'").replace("\u00a0", " ")


def _sentences(text: str) -> list[str]:
    sentences: list[str] = []
    start = 0
    for end in _SENTENCE_END.finditer(text):
        # The word before the mark, from a window as long as the longest abbreviation: the
        # whole text since the last sentence ("St. St. St. …") made splitting quadratic.
        before = text[max(start, end.start() - _LAST_WORD_WINDOW) : end.start()].split()
        last = before[-1] if before else ""
        # "St. Louis", "J. Smith": a full stop that is not the end of a sentence.
        initial = len(last) == 1 and last.isupper()
        if end.group().startswith(".") and (last.lower() in _ABBREVIATIONS or initial):
            continue
        sentences.append(text[start : end.end()].strip())
        start = end.end()
    sentences.append(text[start:].strip())
    return [sentence for sentence in sentences if sentence]


def _read_sentence(text: str, said_at: datetime) -> _Sentence:
    change = _CHANGE.search(text) is not None
    found = find_time_range(text, said_at) if change else None
    return _Sentence(
        text=text,
        # "Actually, I switched jobs" is news, not a fix of something believed wrongly.
        correction=_CORRECTION.search(text) is not None and not change,
        valid_from=found.start if found else None,
        job_words=_JOB_WORDS.search(text) is not None,
    )


def _from_sentence(sentence: _Sentence, episode_id: str, speaker: str,
                   confidence: float) -> list[Candidate]:
    asked = sentence.text.rstrip().endswith("?")
    candidates: list[Candidate] = []
    for clause in _CLAUSE_BREAK.split(sentence.text):
        if clause.rstrip().endswith("?") or (asked and _ASKING.match(clause.strip())):
            continue
        for pattern in _PATTERNS:
            if pattern.needs_job_words and not sentence.job_words:
                continue
            for match in pattern.regex.finditer(clause):
                if _HEDGE.search(clause[: match.start()]):
                    continue
                value = pattern.read(match.group("obj"))
                if value is not None:
                    candidates.append(_candidate(pattern, value, sentence, episode_id, speaker,
                                                 confidence))
    return candidates


def _candidate(pattern: _Pattern, value: str, sentence: _Sentence, episode_id: str,
               speaker: str, confidence: float) -> Candidate:
    return Candidate(
        episode_id=episode_id, subject=speaker, predicate=pattern.predicate,
        object=_FIRST_PERSON.sub(lambda m: f"{speaker}'s" if m["own"] else speaker, value),
        object_is_entity=pattern.is_entity,
        confidence=round(confidence * _WEAK, 4) if pattern.weak else confidence,
        quote=sentence.text, valid_from=sentence.valid_from,
        # Replacing outright only makes sense where there is one value to replace.
        correction=sentence.correction and pattern.predicate in _SINGLE_VALUED)
