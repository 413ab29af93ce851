"""Names of countries and of the states of the United States: places that are never a city or a town.

"In which city was Annie Morton born?" is not answered by "... an American model born in
Pennsylvania." (`_short_answer._place_of_kind`). Left out on purpose: a name that is a city as
well ("New York", "Washington", "Singapore", "Mexico", "Panama", "Kuwait", "Djibouti", "Monaco",
"Luxembourg", "Vatican City", "San Marino", "Guatemala", "Georgia", a state and a country).
"""

from __future__ import annotations

from typing import Final

_STATES: Final = (
    "Alabama;Alaska;Arizona;Arkansas;California;Colorado;Connecticut;Delaware;Florida;Hawaii;Idaho;"
    "Illinois;Indiana;Iowa;Kansas;Kentucky;Louisiana;Maine;Maryland;Massachusetts;Michigan;Minnesota;"
    "Mississippi;Missouri;Montana;Nebraska;Nevada;New Hampshire;New Jersey;New Mexico;North Carolina;"
    "North Dakota;Ohio;Oklahoma;Oregon;Pennsylvania;Rhode Island;South Carolina;South Dakota;Tennessee;"
    "Texas;Utah;Vermont;Virginia;West Virginia;Wisconsin;Wyoming"
)
_COUNTRIES: Final = (
    "Afghanistan;Albania;Algeria;Andorra;Angola;Argentina;Armenia;Australia;Austria;Azerbaijan;Bahamas;"
    "Bahrain;Bangladesh;Barbados;Belarus;Belgium;Belize;Benin;Bhutan;Bolivia;Bosnia and Herzegovina;"
    "Botswana;Brazil;Brunei;Bulgaria;Burkina Faso;Burundi;Cambodia;Cameroon;Canada;Chad;Chile;China;"
    "Colombia;Comoros;Costa Rica;Croatia;Cuba;Cyprus;Czech Republic;Czechia;Denmark;Dominican Republic;"
    "Ecuador;Egypt;El Salvador;England;Eritrea;Estonia;Eswatini;Ethiopia;Fiji;Finland;France;Gabon;"
    "Gambia;Germany;Ghana;Greece;Grenada;Guinea;Guyana;Haiti;Honduras;Hungary;Iceland;India;Indonesia;"
    "Iran;Iraq;Ireland;Israel;Italy;Jamaica;Japan;Jordan;Kazakhstan;Kenya;Kosovo;Kyrgyzstan;Laos;Latvia;"
    "Lebanon;Lesotho;Liberia;Libya;Liechtenstein;Lithuania;Madagascar;Malawi;Malaysia;Maldives;Mali;"
    "Malta;Mauritania;Mauritius;Moldova;Mongolia;Montenegro;Morocco;Mozambique;Myanmar;Namibia;Nepal;"
    "Netherlands;New Zealand;Nicaragua;Niger;Nigeria;North Korea;North Macedonia;Northern Ireland;Norway;"
    "Oman;Pakistan;Papua New Guinea;Paraguay;Peru;Philippines;Poland;Portugal;Qatar;Romania;Russia;"
    "Rwanda;Saudi Arabia;Scotland;Senegal;Serbia;Sierra Leone;Slovakia;Slovenia;Somalia;South Africa;"
    "South Korea;South Sudan;Spain;Sri Lanka;Sudan;Suriname;Sweden;Switzerland;Syria;Taiwan;Tajikistan;"
    "Tanzania;Thailand;Togo;Trinidad and Tobago;Tunisia;Turkey;Turkmenistan;Uganda;Ukraine;"
    "United Arab Emirates;United Kingdom;United States;Uruguay;Uzbekistan;Venezuela;Vietnam;Wales;"
    "Yemen;Zambia;Zimbabwe"
)
NOT_CITIES: Final = frozenset(f"{_STATES};{_COUNTRIES}".split(";"))
