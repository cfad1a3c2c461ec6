from .base import BaseExporter, CsvExporter
from .mixins import CompressMixin, JsonMixin, SortedMixin


class SortedJsonExporter(SortedMixin, JsonMixin, BaseExporter):
    pass


class CompressedCsvExporter(SortedMixin, CompressMixin, CsvExporter):
    pass
