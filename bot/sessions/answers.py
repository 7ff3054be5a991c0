"""An answer of the session layer made of sentences with parts (a name, a number of minutes):
English as a ``str`` (for logs and tests), and in any reader's language.

A fixed answer is a catalogue text as it is (``N_``); one whose sentences carry parts keeps each
sentence as a function of the language, so its words (and a count's plural form) come from the
catalogue where the Discord layer knows the reader.
"""

from __future__ import annotations

from collections.abc import Callable

from bot import i18n

Sentence = Callable[[str], str]  # language → the sentence in it


class Answer(str):
    """The English answer, with the sentences it is made of."""

    sentences: tuple[Sentence, ...]

    def __new__(cls, *sentences: Sentence) -> Answer:
        answer = super().__new__(cls, " ".join(sentence(i18n.ENGLISH) for sentence in sentences))
        answer.sentences = sentences
        return answer

    def said(self, lang: str) -> str:
        """The answer in ``lang``."""
        return " ".join(sentence(lang) for sentence in self.sentences)
