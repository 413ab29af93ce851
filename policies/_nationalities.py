"""Nationality words and the country each names, for questions settled by nationality (`_same_value`).

Variants of one nationality share a name ("Argentine", "Argentinian" -> "Argentine"), so a
question and a page need not spell it alike. A whole and its parts (`WHOLES`: British and
English, Soviet and Russian), and two nations of the United Kingdom: `_same_value` reads them as
neither the same nor different. Only words used as nationalities are listed; a word that is
also a common word is matched only when capitalized (`_stated_values`). Left out on purpose, so
that they settle nothing: words naming more than one nation or something else as often
("Korean", North or South; "Congolese", of two Congos; "Dominican", a country or a religious order;
"Persian";
"Georgian", a country or a style), and the first words of two-word nationalities ("South
African", "Costa Rican"): "Lankan", "Verdean", "Leonean" and "Zealander" are read, being the
second word of one nationality only.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

# A whole and its parts: "British" against "English", "Soviet" against "Russian" is neither the
# same nationality nor another one. Two nations of the United Kingdom are not either (both British).
_SOVIET: Final = (
    "Russian Ukrainian Belarusian Armenian Azerbaijani Estonian Latvian Lithuanian Kazakh Kyrgyz Tajik "
    "Turkmen Uzbek Moldovan"
)
WHOLES: Final = MappingProxyType(
    {
        "British": frozenset({"English", "Scottish", "Welsh"}),
        "Soviet": frozenset(_SOVIET.split()),
        "Yugoslav": frozenset({"Serbian", "Croatian", "Bosnian", "Slovenian", "Macedonian", "Montenegrin"}),
        "Czechoslovak": frozenset({"Czech", "Slovak"}),
    }
)

# Each nationality's spellings, the first its name as compared and shown (capitalized).
_SPELLINGS: Final = (
    "afghan", "albanian", "algerian", "american", "andorran", "angolan",
    "argentine argentinian argentinean", "armenian", "australian", "austrian", "azerbaijani",
    "bahamian", "bahraini", "bangladeshi", "barbadian", "belarusian", "belgian", "belizean", "beninese",
    "bhutanese", "bolivian", "bosnian", "botswanan", "brazilian", "bruneian", "bulgarian", "burkinabe",
    "burmese", "burundian", "cambodian", "cameroonian", "canadian", "verdean", "chadian", "chilean",
    "chinese", "colombian", "croatian", "cuban", "cypriot", "czech", "danish",
    "djiboutian", "dutch", "ecuadorian ecuadorean", "egyptian", "salvadoran salvadorean", "eritrean",
    "estonian", "ethiopian", "fijian", "filipino philippine", "finnish", "french", "gabonese",
    "gambian", "german", "ghanaian", "greek", "grenadian", "guatemalan", "guinean", "guyanese",
    "haitian", "honduran", "hungarian", "icelandic", "indian", "indonesian", "iranian", "iraqi",
    "irish", "israeli", "italian", "ivorian", "jamaican", "japanese", "jordanian", "kazakh kazakhstani",
    "kenyan", "kuwaiti", "kyrgyz", "laotian lao", "latvian", "lebanese", "liberian", "libyan",
    "liechtensteiner", "lithuanian", "luxembourgish", "macedonian", "malagasy", "malawian", "malaysian",
    "maldivian", "malian", "maltese", "mauritanian", "mauritian", "mexican", "moldovan", "monegasque",
    "mongolian", "montenegrin", "moroccan", "mozambican", "namibian", "nepalese nepali", "zealander",
    "nicaraguan", "nigerien", "nigerian", "norwegian", "omani", "pakistani", "palestinian",
    "panamanian", "paraguayan", "peruvian", "polish", "portuguese", "qatari", "romanian", "russian",
    "rwandan", "saudi", "senegalese", "serbian", "leonean", "singaporean", "slovak slovakian",
    "slovenian slovene", "somali", "spanish", "lankan", "sudanese", "surinamese", "swedish", "swiss",
    "syrian", "taiwanese", "tajik", "tanzanian", "thai", "togolese", "trinidadian", "tunisian",
    "turkish", "turkmen", "ugandan", "ukrainian", "emirati", "uruguayan", "uzbek", "venezuelan",
    "vietnamese", "yemeni", "zambian", "zimbabwean", "soviet", "yugoslav yugoslavian",
    "czechoslovak czechoslovakian", "british", "english", "scottish scots", "welsh",
)  # fmt: skip

# Every spelling, folded, to the nationality's name ("argentinian" -> "Argentine").
NATIONALITIES: Final = MappingProxyType(
    {word: spelled.split()[0].capitalize() for spelled in _SPELLINGS for word in spelled.split()}
)
