"""python3 -m unittest discover -s tests (from scripts/retrieval-lab)."""

import os
import tempfile
import unittest

from lab import dates
from lab.fts import FtsIndex, tokenize
from lab.locomo import Sample, Session, Turn, parse_dia_id, parse_evidence, recall_at
from lab.porter import stem
from lab.ranker import Config, Conversation, query_terms

VECTORS = os.path.join(os.path.dirname(__file__), "..", "..", "..", "examples", "browser", "test",
                       "vectors", "porter-stems.tsv")


class TheTokenizer(unittest.TestCase):
    def test_the_tokenizer_matches_known_fts5_porter_stems(self):
        known = {"aggregate": "aggreg", "hopefully": "hopefulli", "reaches": "reach",
                 "finalization": "final", "modify": "modifi", "codes": "code", "later": "later"}
        for word, term in known.items():
            self.assertEqual(stem(word), term, word)

    def test_the_tokenizer_matches_every_single_term_vector_of_the_browser_tests(self):
        if not os.path.exists(VECTORS):
            self.skipTest("vectors not found")
        checked = 0
        with open(VECTORS, encoding="utf-8") as f:
            for line in f:
                if line.startswith("#") or "\t" not in line:
                    continue
                word, terms = line.rstrip("\n").split("\t")
                self.assertEqual(" ".join(tokenize(word)), terms, word)
                checked += 1
        self.assertGreater(checked, 3000)

    def test_case_and_diacritics_are_folded_before_stemming(self):
        self.assertEqual(tokenize("Café naïve ÜBER"), ["cafe", "naiv", "uber"])


class TheQuery(unittest.TestCase):
    def test_function_words_are_dropped_as_the_host_drops_them(self):
        self.assertEqual(query_terms("When did Caroline go to the LGBTQ support group?"),
                         ["Caroline", "go", "LGBTQ", "support", "group"])

    def test_a_query_of_function_words_keeps_them(self):
        self.assertEqual(query_terms("Who are you?"), ["Who", "are", "you"])

    def test_repeated_words_are_searched_once(self):
        self.assertEqual(query_terms("Key key KEY rc4 key"), ["Key", "rc4"])


class TheEvidence(unittest.TestCase):
    def test_evidence_id_parsing_handles_the_damaged_ids_the_data_readme_lists(self):
        self.assertEqual(parse_evidence(["D8:6; D9:17"]), [(8, 6), (9, 17)])
        self.assertEqual(parse_evidence(["D9:1 D4:4 D4:6"]), [(9, 1), (4, 4), (4, 6)])
        self.assertEqual(parse_evidence(["D:11:26", "D30:05", "D", "(D1:2)", "D1:2"]),
                         [(11, 26), (30, 5), (1, 2)])

    def test_ids_without_both_numbers_are_dropped(self):
        for bad in ["D", "D4", "D1:2:3", "session 1", ""]:
            self.assertIsNone(parse_dia_id(bad), bad)

    def test_recall_counts_evidence_in_the_top_k_and_empty_evidence_scores_one(self):
        retrieved = [[(1, 1)], [(1, 2), (3, 3)], [(2, 5)], [(4, 4)]]
        evidence = [(3, 3), (4, 4), (9, 9)]
        self.assertEqual(recall_at(retrieved, evidence, 1), 0.0)
        self.assertAlmostEqual(recall_at(retrieved, evidence, 4), 2 / 3)
        self.assertEqual(recall_at(retrieved, [], 5), 1.0)


class TheIndex(unittest.TestCase):
    def test_bm25_prefers_the_shorter_document_and_the_rarer_word(self):
        index = FtsIndex()
        index.add(1, ["pottery class on Sunday", ""])
        index.add(2, ["a very long note that mentions pottery among many other words here", ""])
        index.add(3, ["nothing relevant", ""])
        phrases = [index.phrase("pottery")]
        counts = [len(index.matching(phrases[0]))]
        self.assertGreater(index.bm25(phrases, 1, counts), index.bm25(phrases, 2, counts))


class TheDates(unittest.TestCase):
    def test_relative_times_resolve_against_the_session_date(self):
        when = dates.session_date("1:56 pm on 8 May, 2023")
        self.assertEqual(str(when), "2023-05-08")
        self.assertEqual(dates.resolve("I went yesterday", when), ["7 May 2023"])
        self.assertEqual(dates.resolve("last Tuesday", when), ["2 May 2023"])
        self.assertEqual(dates.resolve("next month", when), ["June 2023"])
        self.assertEqual(dates.resolve("two weeks ago", when), ["April 2023"])


def knowledge_base(config, texts):
    turns = [Turn((1, n), "Nate", text, None) for n, text in enumerate(texts, 1)]
    return Conversation(Sample("test", ("Nate", "Joanna"), [Session(1, None, turns)]), config)


class TheSemanticIdeas(unittest.TestCase):
    TEXTS = ["I baked a cake for the party", "The weather was rainy all week",
             "My car broke down again", "We watched a movie on Friday"]

    def test_a_thesaurus_neighbour_finds_a_memory_that_shares_no_word_with_the_question(self):
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "thesaurus.tsv")
            with open(path, "w", encoding="utf-8") as f:
                f.write("dessert\tcake:0.700 pie:0.650\n")
            plain = knowledge_base(Config(), self.TEXTS)
            expanded = knowledge_base(Config(thes_path=path, thes_k=2, thes_weight=0.3), self.TEXTS)
            self.assertEqual(plain.recall("favourite dessert"), [])
            # Memory 1 first; its thread neighbours follow through the smoothing.
            self.assertEqual(expanded.recall("favourite dessert")[0], 1)

    def test_dense_fusion_lifts_the_nearest_memory_and_dense_alone_ranks_by_cosine(self):
        cosines = [0.1, 0.2, 0.9, 0.3]
        fused = knowledge_base(Config(dense_weight=2.0, dense_floor=0.3, dense_depth=2), self.TEXTS)
        fused.similarity = lambda question: cosines
        # Lexical scores over the best, plus 2 x the cosine above 0.3, for the lexical hits and
        # the 2 nearest memories (3 and 4): memory 1, neither, is left out.
        scores = fused.fuse({2: 5.0}, "which week")
        self.assertEqual(sorted(scores), [2, 3, 4])
        for memory, expected in {2: 1.0, 3: 1.2, 4: 0.0}.items():
            self.assertAlmostEqual(scores[memory], expected, msg=memory)
        # "week" matches memory 2 alone; memory 3, the nearest by cosine, overtakes it.
        self.assertEqual(fused.recall("which week")[:2], [3, 2])
        alone = knowledge_base(Config(dense_only=True), self.TEXTS)
        alone.similarity = lambda question: cosines
        self.assertEqual(alone.recall("anything"), [3, 4, 2, 1])


if __name__ == "__main__":
    unittest.main()
