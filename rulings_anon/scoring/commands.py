"""``score``: the product's command, the sensitive spans of new rulings and their anonymized copies.

Only argument parsing and the assembly of the run live here: the decision is the engine's
(:mod:`rulings_anon.engine`), the batches, resume and outputs :mod:`rulings_anon.scoring.score_run`,
the Beam pipeline :mod:`rulings_anon.scoring.beam_pipeline`. ``evaluate`` takes the same decision
options from here, so it measures exactly what ``score`` does.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rulings_anon.cli import Command, threshold_argument
from rulings_anon.defaults import (
    BATCH_MIN_DOCUMENTS,
    BATCH_SHARE,
    DEFAULT_COMBINATION,
    DEFAULT_NER_THRESHOLD,
    DEFAULT_THRESHOLD,
)
from rulings_anon.diagnostics import summary
from rulings_anon.runners import add_runner_option, as_url, beam_requested

COMBINATION_NAMES = ("model", "ner", "min", "mean")  # rulings_anon.analyzer.decisions.COMBINATIONS
SCORE_DESCRIPTION = """\
Find the sensitive spans of new, non-anonymized rulings. By default the bundled sensitivity model
(rulings_anon/data/scorer, the same as --features) judges every capitalized element from word frequency,
places, context and document cues, each ruling on its own text, at the threshold chosen by leaving courts out
(rulings_anon/data/scorer/config.json); --recall-first takes its threshold for recall >= 0.95 on every court
left out instead.
--ner/--combine let the legal NER propose references instead: with --combine ner a reference is
sensitive when the NER's probability that courts anonymize it reaches the threshold, and
--combine model|min|mean let a contextual model (--model) judge the masked context too;
--no-ner --model MODEL classifies every element with a contextual model. Hits of standalone
recognizers (IBAN, e-mail, phone, "Herr Kemper", "Dr. Grill" unless a judge's, ...) are sensitive
on their own. A name flagged once is flagged everywhere in its document; neighbouring sensitive
elements become one span, also across a name's or a place's particle ("Ybbs an der Donau").

Output: one line per document, {"id", "spans": [{"start", "end", "text", "score", "type"?,
"source"}]}, offsets into the input text. An interrupted run resumes when started again with
the same options, model, NER and --anonymize/--pseudonymize targets: documents whose text is
unchanged are kept, changed ones are scored again; with any other option, model or NER the
unfinished run is discarded and scoring starts over (the summary line says so).
--anonymize writes the texts as the court's --policy says (the shipped rulings_anon/data/policies/default.toml:
court-style placeholders "Herr K.", "die M GmbH", "..."; a policy file chooses per type a
placeholder, pseudonym, numbered tag "[Person 1]", redaction "███" or keep, and lists names never
anonymized, such as the court's judges, and names always anonymized; the spans file follows both
lists, and holds the details its [alone] table counts on their own: birth dates, postcodes with
their town, land parcels, house numbers, authorities' file numbers by default), --pseudonymize with consistent realistic surrogates that keep gender, case endings and
formats (plates, phone numbers, e-mail addresses, IBANs with valid checksums): a .jsonl target
gets {"id", "text"} lines (pseudonymized also "spans"), any other target is a folder of files:
DOCX and ODT in: the same format out; PDF and RTF in: .docx out; others ID.txt (an id that is no
plain short file name becomes a safe prefix plus a hash of it; index.jsonl maps ids to files).
--mapping FILE keeps the surrogates of a case's rulings the same across rulings and runs: it is
read at the start, extended and written back (0600: it holds the real names beside their
surrogates); keep it with the case and give it to every run over the case's rulings.
A folder is written whole at the end (complete or absent) and must be new, empty or an earlier
such folder. Every output, the unfinished run's .OUTPUT.partial too, is readable only by you
(files 0600, folders 0700): they hold the names.
Outputs that cannot be written (a folder named as --output, a file as a folder), that are an
input (also through a link), lie inside an input folder or hold an input, or collide with each
other are refused before any work.

examples:
  rulings-anon score ruling.txt --output spans.jsonl --show
  rulings-anon score rulings/ --output spans.jsonl --recall-first     # for review: more suggestions
  rulings-anon score corpus/test.jsonl --output spans.jsonl --anonymize anonymized.jsonl
  rulings-anon score urteil.docx --output spans.jsonl --anonymize out/ --policy gericht.toml
  rulings-anon score az-12-34/ --output spans.jsonl --pseudonymize out/ --mapping az-12-34.mapping.jsonl
  rulings-anon score --model runs/demo/model --combine min ruling.txt --output spans.jsonl
  rulings-anon score --model runs/demo/model --no-ner ruling.txt --output spans.jsonl
"""


def add_decision_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", type=Path, metavar="MODEL",
                        help="model directory written by 'rulings-anon train' (not needed with --ner and "
                             "--combine ner)")
    parser.add_argument("--threshold", type=threshold_argument, default=None, metavar="T",
                        help=f"least score of a sensitive element or reference: higher trades recall for "
                             f"precision (default: the sensitivity model's stored threshold, "
                             f"{DEFAULT_NER_THRESHOLD} for the NER's score with --combine ner, "
                             f"{DEFAULT_THRESHOLD} for a contextual model's probability; chosen on dev courts)")
    parser.add_argument("--ner", type=Path, metavar="NER_MODEL",
                        help="legal NER model directory ('rulings-anon train-ner') proposing references "
                             "(default: the bundled rulings_anon/data/ner)")
    parser.add_argument("--no-ner", action="store_true",
                        help="no NER: the contextual model (--model) classifies every element")
    parser.add_argument("--combine", choices=COMBINATION_NAMES, default=None,
                        help="how a proposed reference is judged: 'ner' (the NER's probability that courts "
                             "anonymize it; no model needed), 'model' (the contextual model's probability of its "
                             "masked context, thesis 5.5.3), 'min' (both), 'mean' (their mean); "
                             f"default {DEFAULT_COMBINATION} where a NER proposes")
    parser.add_argument("--features", action="store_true",
                        help="the sensitivity model over capitalized elements (rulings_anon/data/scorer: word frequency, places, "
                             "context and document cues; no NER), the same as --no-ner --model rulings_anon/data/scorer; its "
                             "threshold is the one chosen by leaving courts out (rulings_anon/data/scorer/config.json)")
    parser.add_argument("--recall-first", action="store_true",
                        help="with the sensitivity model: its recall-first threshold (chosen for recall >= 0.95 on "
                             "courts left out of its fit), for review work where staff check every suggestion")
    parser.add_argument("--no-recognizers", action="store_true",
                        help="do not run the rule-based recognizers (IBAN, e-mail, phone, ...)")
    parser.add_argument("--skip-recognizers", metavar="NAMES", default="",
                        help="comma-separated recognizers not to run, e.g. titled_name for a court that names "
                             "the doctors and experts it hears in clear (the names are those of "
                             "rulings_anon/data/recognizers.json)")
    parser.add_argument("--no-consistency", action="store_true",
                        help="do not flag every mention of a name flagged once in the document")
    parser.add_argument("--batch-vocabulary", action="store_true",
                        help="take the capitalized words that recur in many of the input documents (at least "
                             f"{100 * BATCH_SHARE:g} %% of them and {BATCH_MIN_DOCUMENTS} or more) for the court's "
                             "vocabulary, never spread as names: it only takes spans away, so a ruling's spans "
                             "then depend on the others scored with it; by default each ruling's spans are "
                             "those it has alone")
    parser.add_argument("--no-batch-vocabulary", dest="batch_vocabulary", action="store_false",
                        help="no batch vocabulary (the default)")


def _configure_score(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("inputs", nargs="+", metavar="INPUT",
                        help="documents: JSONL ({\"id\", \"text\"} per line), .txt, portal .xml/.zip, or a folder")
    add_decision_options(parser)
    parser.add_argument("--output", required=True, type=Path, metavar="SPANS.jsonl",
                        help="spans file to write (a file: '-' is refused, since the run resumes from it "
                             "and writes it whole)")
    parser.add_argument("--show", action="store_true",
                        help="print each text with its spans highlighted (colours on a terminal, «» otherwise)")
    parser.add_argument("--anonymize", type=Path, metavar="OUT",
                        help="also write the texts with court-style placeholders (.jsonl file or folder)")
    parser.add_argument("--pseudonymize", type=Path, metavar="OUT",
                        help="also write the texts with realistic surrogates (.jsonl file or folder)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the surrogates (default 0)")
    parser.add_argument("--policy", type=Path, metavar="FILE",
                        help="the court's policy (.toml or .json, or a shipped one by name: default, state-court): "
                             "the operator of each type for --anonymize, names never and always anonymized, the "
                             "details that count on their own (birth dates, postcodes, land parcels, ...), the "
                             "exemptions it follows (default rulings_anon/data/policies/default.toml: court style; "
                             "state-court also anonymizes the seats of authorities and road numbers)")
    parser.add_argument("--mapping", type=Path, metavar="FILE.jsonl",
                        help="surrogates kept across the rulings of one case and between runs: read at the start, "
                             "extended, written back readable by you alone (it holds real names); with it one "
                             "process scores, and --runner is refused: workers side by side could give one person "
                             "two surrogates")
    parser.add_argument("--encoding", default=None, help="encoding of .txt input (default UTF-8)")
    parser.add_argument("--jobs", type=_jobs, default=0, metavar="N",
                        help="worker processes scoring side by side (default 0: one per CPU core, up to 8; with a contextual "
                             "model or the NER always 1; with --runner the runner's workers instead); the spans "
                             "are the same for any N")
    add_runner_option(parser)


def _jobs(value: str) -> int:
    number = int(value) if value.strip().isdigit() else -1
    if number < 0:
        raise argparse.ArgumentTypeError(f"not a number of processes: {value!r}")
    return number


def recognizers_of(args) -> bool | set[str]:
    """The recognizers the options name (see :func:`rulings_anon.engine.resolve_recognizers`)."""
    from rulings_anon.engine import resolve_recognizers

    return resolve_recognizers(not args.no_recognizers, args.skip_recognizers)


def build_analyzer(args, method: str, progress: bool = True):
    """The engine's :class:`~rulings_anon.engine.Analyzer` of the command line ``args`` (after
    :func:`use_features`): the contextual model and the NER loaded when the method needs them
    (in-process once, on Beam once per worker), every other setting resolved by the engine."""
    from rulings_anon.engine import Analyzer

    model, ner = _load(args, method, progress)
    return Analyzer(args.model, element_model=model, threshold=args.threshold,
                    recall_first=getattr(args, "recall_first", False), recognizers=not args.no_recognizers,
                    skip_recognizers=args.skip_recognizers, consistency=not args.no_consistency,
                    batch_vocabulary=args.batch_vocabulary, ner=ner, combination=args.combine,
                    policy=getattr(args, "policy", None))


def use_features(args, default: bool = False) -> None:
    """``--features``: the bundled sensitivity model classifies every element, no NER; with
    ``default`` (``score``) also when no model, NER or combination is named. Otherwise the
    combination defaults to the NER's."""
    from rulings_anon.errors import InputError

    chosen = args.model is not None or args.ner is not None or args.no_ner or args.combine is not None
    if getattr(args, "features", False) or (default and not chosen):
        if chosen:
            raise InputError("--features uses rulings_anon/data/scorer and no NER; leave out --model, --ner, --no-ner and --combine")
        args.model, args.no_ner = data_path_of("scorer"), True
    if args.combine is None:
        args.combine = DEFAULT_COMBINATION


def _method(args) -> str:
    """``score``'s candidate mode: the NER proposes references unless --no-ner."""
    return "none" if args.no_ner else "ner"


def check_model_option(args, method: str) -> bool:
    """Whether the decision needs the contextual model (``--model``). An :class:`InputError` when it
    is needed and missing, or given where nothing would use it: with ``--combine ner`` the NER's
    score alone decides, and a model silently ignored would put the NER's figures in a report
    under the model's name."""
    from rulings_anon.analyzer.decisions import COMBINATIONS
    from rulings_anon.errors import InputError

    needs_model = method != "ner" or COMBINATIONS[args.combine].uses_model
    if needs_model and args.model is None:
        why = "--no-ner" if args.no_ner else f"method {method}" if method != "ner" else f"--combine {args.combine}"
        raise InputError(f"--model MODEL is needed with {why}; only the NER with --combine ner works without one")
    if not needs_model and args.model is not None:
        raise InputError(f"--model is not used with --combine {args.combine}, where the NER's score alone decides; "
                         "give --combine model, min or mean to let the model judge the NER's candidates")
    return needs_model


def _load(args, method: str, progress: bool = True):
    """The contextual model (None when the decision needs none) and the NER (None unless the method
    is ner); both raise ModelError naming what is wrong, missing options an InputError."""
    from rulings_anon.data import path as data_path
    from rulings_anon.errors import InputError, ModelError

    from .prediction import load_element_model

    if method == "ner" and args.no_ner:
        raise InputError("--method ner needs the NER; leave out --no-ner")
    needs_model = check_model_option(args, method)
    model = load_element_model(args.model, progress=progress) if needs_model else None
    ner = None
    if method == "ner":
        from rulings_anon.ner import load_ner

        directory = args.ner or data_path("ner")
        if not directory.is_dir():
            raise ModelError(f"{directory}: no such NER model directory")
        ner = load_ner(directory)
    return model, ner


def _run_key(args, method: str, settings, recognizers) -> str:
    """The fingerprint of everything besides the texts that decides what ``score`` writes."""
    import hashlib

    from rulings_anon.replacement.policy import default_policy_path
    from rulings_anon.version import __version__

    from .score_run import directory_digest

    ner = None if args.no_ner else (args.ner or data_path_of("ner"))
    fields = {
        "version": __version__, "method": method, "threshold": settings.threshold,
        "combination": settings.combination, "consistency": settings.consistency,
        "common_words": sorted(settings.common_words),
        "recognizers": sorted(recognizers) if isinstance(recognizers, (set, frozenset)) else recognizers,
        "model": directory_digest(args.model) if settings.needs_model(method) else None,
        "ner": directory_digest(ner) if method == "ner" else None,
        "anonymize": args.anonymize is not None, "pseudonymize": args.pseudonymize is not None,
        "seed": args.seed if args.pseudonymize is not None else None,
        "policy": directory_digest(args.policy or default_policy_path()),
        "mapping": directory_digest(args.mapping) if args.mapping is not None else None,
    }
    return hashlib.sha256(json.dumps(fields, sort_keys=True).encode("utf-8")).hexdigest()


def data_path_of(name: str) -> Path:
    from rulings_anon.data import path as data_path

    return data_path(name)


class ScoreSetup:
    """What ``score``'s command line decides, handed to the Beam pipeline (which runs below this
    module and does not import it); pickled with the pipeline's steps, it loads on the workers."""

    def __init__(self, args):
        self.args = args

    @property
    def uses_batch_vocabulary(self) -> bool:
        """Whether the decision takes the words recurring in the input documents."""
        return not self.args.no_consistency and self.args.batch_vocabulary

    def check(self) -> None:
        """Bad options and missing model directories, as one line, before any worker starts."""
        from rulings_anon.engine import resolve_threshold
        from rulings_anon.errors import ModelError

        args = self.args
        recognizers_of(args)
        resolve_threshold(args.threshold, args.model, getattr(args, "recall_first", False), _method(args),
                          args.combine)
        needs_model = check_model_option(args, _method(args))
        for directory in (args.model if needs_model else None, args.ner if not args.no_ner else None):
            if directory is not None and as_url(directory) is None and not directory.is_dir():
                raise ModelError(f"{directory}: no such model directory")

    def scorer(self, batch_words: frozenset = frozenset(), fetch=None):
        """The scorer of the batch vocabulary ``batch_words``, with the model and the NER loaded once
        per worker; a ``--model`` or ``--ner`` given as a URL (``gs://bucket/model``) is first copied
        here by ``fetch(url) -> local path``."""
        if getattr(self, "_analyzer", None) is None:
            args = self.args
            urls = {name: as_url(getattr(args, name)) for name in ("model", "ner") if getattr(args, name) is not None}
            if fetch is not None and any(urls.values()):
                args = argparse.Namespace(**vars(args))
                for name, url in urls.items():
                    if url is not None:
                        setattr(args, name, Path(fetch(url)))
                self.args = args  # this worker's copy: the analyzer reads the local model's threshold too
            self._analyzer = build_analyzer(self.args, _method(self.args), progress=False)
        return self._analyzer.scorer(batch_words=batch_words)


def _score_inputs(args) -> list:
    """What ``score`` reads from the file system: the documents, the model and the NER."""
    from rulings_anon.output_paths import inputs

    local = [p for p in args.inputs if as_url(p) is None]
    return (inputs("INPUT", local) + inputs("--model", args.model if args.model and not as_url(args.model) else None)
            + inputs("--ner", args.ner if args.ner and not as_url(args.ner) else None))


def _check_beam_score_paths(args) -> None:
    """``score --runner``: the local outputs checked against the inputs as in-process."""
    from rulings_anon.output_paths import check_outputs

    from .score_run import ScoreRun

    targets = [t for t in ScoreRun(args.output, args.anonymize, args.pseudonymize).targets() if as_url(t.path) is None]
    check_outputs(targets, _score_inputs(args))


def _run_score(args) -> int:
    if beam_requested(args):
        if args.mapping is not None:
            from rulings_anon.errors import InputError

            raise InputError("--mapping is read and extended by one process (workers would draw different "
                             "surrogates for one person): leave out --runner")
        from .beam_pipeline import score

        recognizers_of(args)
        _check_beam_score_paths(args)
        use_features(args, default=True)
        return score(args, ScoreSetup(args))
    from rulings_anon.document import count_elements
    from rulings_anon.escapes import printable
    from rulings_anon.inputs import read_input_documents

    from .highlight import highlight
    from .score_run import ScoreRun, score_documents, text_digest, usable_jobs

    recognizers = recognizers_of(args)
    use_features(args, default=True)
    from rulings_anon.replacement.policy import load_policy

    run = ScoreRun(args.output, args.anonymize, args.pseudonymize, args.seed, policy=load_policy(args.policy),
                   mapping_path=args.mapping)
    run.check_outputs(_score_inputs(args))
    # A first pass checks the input (empty files, repeated ids, unreadable documents) before
    # anything is written, and notes each document's text digest and element count. The batch
    # vocabulary counts every input document, scored already or not, so that a resumed run
    # decides as an uninterrupted one.
    inputs: dict[str, str] = {}
    elements = 0

    def texts():
        nonlocal elements
        if inputs:
            yield from (d.text for d in read_input_documents(args.inputs, args.encoding or "utf-8"))
            return
        for document in read_input_documents(args.inputs, args.encoding or "utf-8"):
            inputs[document.id] = text_digest(document.text)
            elements += count_elements(document.text)
            yield document.text

    # every input document, scored already or not, is the batch of --batch-vocabulary; the batch's
    # first read is the first pass, unless the decision reads no batch at all
    scorer = build_analyzer(args, _method(args)).scorer(texts)
    if not inputs:
        for _ in texts():
            pass
    run.key = _run_key(args, _method(args), scorer.settings, recognizers)
    ansi = sys.stdout.isatty()

    def show(document, spans):
        print(f"== {printable(document.id, one_line=True)} ({len(spans)} spans)")
        print(highlight(document.text, spans, ansi))

    # every pass reads the input by the same rules: a document named twice (a file and the folder
    # holding it) is one document, in the batch vocabulary as in the output
    figures = score_documents(scorer, read_input_documents(args.inputs, args.encoding or "utf-8"), run,
                              show if args.show else None, progress=True, inputs=inputs, elements=elements,
                              jobs=1 if args.mapping is not None else usable_jobs(args.jobs, elements))
    resumed = f", {figures['resumed']} resumed" if figures["resumed"] else ""
    restarted = ("; the unfinished run of other options, model or NER was discarded" if run.restarted else "")
    summary(f"score: {figures['documents']} documents{resumed}, {figures['elements']:,} elements, "
            f"{figures['spans']:,} spans in {figures['seconds']:.1f} s "
            f"({figures['elements_per_second']:,.0f} elements/s) -> {args.output}{restarted}",
            **figures, output=str(args.output), restarted=run.restarted)
    return 0


COMMANDS = [
    Command("score", "find the sensitive spans of non-anonymized rulings", _configure_score, _run_score,
            SCORE_DESCRIPTION),
]
