"""The archive page's form, read into a :class:`~hexhop.archive.query.Query`:
the filters of ``hexhop find``, read by its own functions (no second query
language)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from hexhop.archive import service
from hexhop.archive.filters import FILTERS, LAID_OUT, Filter, sort_key
from hexhop.archive.query import MAX_PATTERN, Query, QueryError
from hexhop.messages import _
from hexhop.notation.numbers import ascii_int


def form_fields() -> tuple[str, ...]:
    """The form's fields: those of the table's filters (archive/filters.py)."""
    return tuple(name for item in FILTERS.values() if item.web for name in item.fields)


FIELDS = form_fields()  # as the table has them when the server starts
MAX_PAGE = 1_000_000


@dataclass
class Search:
    """A search as the form gave it: the values to show again, the query,
    the order and the page; ``problem`` when a filter cannot be read."""

    values: dict[str, str] = field(default_factory=dict)
    query: Query = field(default_factory=Query)
    sort: str = ""  # the sort key (archive/filters.py SORT_KEYS)
    spelled: str = ""  # as the address spelled it (an old spelling kept in the links)
    reverse: bool = False
    page: int = 1
    problem: str | None = None

    @property
    def filtered(self) -> bool:
        return any(self.values.get(name) for name in form_fields())

    def params(self, **changes: str | int | None) -> dict[str, str]:
        """The query parameters of this search, with some changed."""
        params = {name: value for name, value in self.values.items() if value}
        sort = ("-" if self.reverse else "") + (self.spelled or self.sort) if self.sort else ""
        if sort:
            params["sort"] = sort
        if self.page > 1:
            params["page"] = str(self.page)
        for name, value in changes.items():
            if value in (None, ""):
                params.pop(name, None)
            else:
                params[name] = str(value)
        return params


def read_search(params: Mapping[str, str]) -> Search:
    """The search of the query parameters ``params`` (QueryError's message
    in ``problem``, in the language spoken now)."""
    values = {name: params.get(name, "").strip() for name in form_fields()}
    values = {name: value for name, value in values.items() if value}
    search = Search(values=values)
    sort = params.get("sort", "")
    search.reverse = sort.startswith("-")
    search.sort = sort_key(sort.lstrip("-")) or ""
    search.sort = "" if search.sort == "archive" else search.sort
    search.spelled = sort.lstrip("-") if search.sort else ""
    page = ascii_int(params.get("page", "1")) or 1
    search.page = min(page, MAX_PAGE)
    try:
        search.query = query_of(values)
    except QueryError as error:
        search.problem = str(error)
    return search


def query_of(values: Mapping[str, str]) -> Query:
    """The :class:`Query` of the form's values, read by the table's
    filters as ``find`` reads its options (QueryError when one cannot be read)."""
    for value in values.values():
        if len(value) > MAX_PATTERN * 20:
            raise QueryError(_("The search text is too long."))
    given = {item.name: item.form_value(values) for item in FILTERS.values() if item.web}
    return service.query_of(given, label=lambda item: item.option.split("/")[0])


def form_filters() -> list[Filter]:
    """The filters the form makes from the table (the others it lays out by hand)."""
    return [
        item for item in FILTERS.values() if item.web and item.label and item.name not in LAID_OUT
    ]
