"""Nationality words and the country each names, for questions settled by nationality (`_same_value`).

Variants of one nationality share a key ("Argentine", "Argentinian" -> "ar"), so a question
and a page need not spell it alike. The nations of the United Kingdom have keys under
"gb" ("English" -> "gb:england"): `_same_value` reads two of them as neither the same nor
different. Only words used as nationalities are listed; a word that is also a common word
is matched only when capitalized (`_same_value.stated_values`). Left out on purpose, so that
they settle nothing: words naming more than one nation or something else as often
("Korean", North or South; "Dominican", a country or a religious order; "Persian";
"Georgian", a country or a style), and the
first words of two-word nationalities ("South African", "Costa Rican"): "Lankan", "Verdean",
"Leonean" and "Zealander" are read, being the second word of one nationality only.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

UNITED_KINGDOM: Final = "gb"
# Unions of nations: "Soviet" against "Russian" or "Ukrainian" is neither the same nor another.
UNIONS: Final = frozenset({"su", "yu", "cs"})

_BY_COUNTRY: Final = {
    "af": "afghan", "al": "albanian", "dz": "algerian", "us": "american", "ad": "andorran",
    "ao": "angolan", "ar": "argentine argentinian argentinean", "am": "armenian",
    "au": "australian", "at": "austrian", "az": "azerbaijani", "bs": "bahamian", "bh": "bahraini",
    "bd": "bangladeshi", "bb": "barbadian", "by": "belarusian", "be": "belgian", "bz": "belizean",
    "bj": "beninese", "bt": "bhutanese", "bo": "bolivian", "ba": "bosnian", "bw": "botswanan",
    "br": "brazilian", "bn": "bruneian", "bg": "bulgarian", "bf": "burkinabe", "mm": "burmese",
    "bi": "burundian", "kh": "cambodian", "cm": "cameroonian", "ca": "canadian", "cv": "verdean",
    "td": "chadian", "cl": "chilean", "cn": "chinese", "co": "colombian",
    "cg": "congolese", "hr": "croatian", "cu": "cuban", "cy": "cypriot",
    "cz": "czech", "dk": "danish", "dj": "djiboutian", "nl": "dutch",
    "ec": "ecuadorian ecuadorean", "eg": "egyptian", "sv": "salvadoran salvadorean", "er": "eritrean",
    "ee": "estonian", "et": "ethiopian", "fj": "fijian", "ph": "filipino philippine", "fi": "finnish",
    "fr": "french", "ga": "gabonese", "gm": "gambian", "de": "german",
    "gh": "ghanaian", "gr": "greek", "gd": "grenadian", "gt": "guatemalan", "gn": "guinean",
    "gy": "guyanese", "ht": "haitian", "hn": "honduran", "hu": "hungarian", "is": "icelandic",
    "in": "indian", "id": "indonesian", "ir": "iranian", "iq": "iraqi", "ie": "irish",
    "il": "israeli", "it": "italian", "ci": "ivorian", "jm": "jamaican", "jp": "japanese",
    "jo": "jordanian", "kz": "kazakh kazakhstani", "ke": "kenyan", "kw": "kuwaiti",
    "kg": "kyrgyz", "la": "laotian lao", "lv": "latvian", "lb": "lebanese", "lr": "liberian",
    "ly": "libyan", "li": "liechtensteiner", "lt": "lithuanian", "lu": "luxembourgish",
    "mk": "macedonian", "mg": "malagasy", "mw": "malawian", "my": "malaysian", "mv": "maldivian",
    "ml": "malian", "mt": "maltese", "mr": "mauritanian", "mu": "mauritian", "mx": "mexican",
    "md": "moldovan", "mc": "monegasque", "mn": "mongolian", "me": "montenegrin",
    "ma": "moroccan", "mz": "mozambican", "na": "namibian", "np": "nepalese nepali",
    "nz": "zealander", "ni": "nicaraguan", "ne": "nigerien", "ng": "nigerian",
    "no": "norwegian", "om": "omani", "pk": "pakistani",
    "ps": "palestinian", "pa": "panamanian", "py": "paraguayan", "pe": "peruvian",
    "pl": "polish", "pt": "portuguese", "qa": "qatari",
    "ro": "romanian", "ru": "russian", "rw": "rwandan", "sa": "saudi", "sn": "senegalese",
    "rs": "serbian", "sl": "leonean", "sg": "singaporean", "sk": "slovak slovakian",
    "si": "slovenian slovene", "so": "somali",
    "es": "spanish", "lk": "lankan", "sd": "sudanese",
    "sr": "surinamese", "se": "swedish", "ch": "swiss", "sy": "syrian", "tw": "taiwanese",
    "tj": "tajik", "tz": "tanzanian", "th": "thai", "tg": "togolese", "tt": "trinidadian",
    "tn": "tunisian", "tr": "turkish", "tm": "turkmen", "ug": "ugandan", "ua": "ukrainian",
    "ae": "emirati", "uy": "uruguayan", "uz": "uzbek", "ve": "venezuelan", "vn": "vietnamese",
    "ye": "yemeni", "zm": "zambian", "zw": "zimbabwean",
    "su": "soviet", "yu": "yugoslav yugoslavian", "cs": "czechoslovak czechoslovakian",
    UNITED_KINGDOM: "british", f"{UNITED_KINGDOM}:england": "english",
    f"{UNITED_KINGDOM}:scotland": "scottish scots", f"{UNITED_KINGDOM}:wales": "welsh",
}  # fmt: skip

# Every word, folded, to its country key.
NATIONALITIES: Final = MappingProxyType(
    {word: key for key, spelled in _BY_COUNTRY.items() for word in spelled.split()}
)
