"""Report exporters assembled from mixins; which method runs is decided by the MRO."""
from exporters import BaseExporter, CompressedCsvExporter, SortedJsonExporter

ROWS = [{"name": "pear", "qty": 5}, {"name": "apple", "qty": 3}]


def main():
    for exporter in (BaseExporter(), SortedJsonExporter(), CompressedCsvExporter()):
        print(type(exporter).__name__, exporter.export(ROWS))
    print(SortedJsonExporter().render(ROWS[:1]))
    print(CompressedCsvExporter().finish("abc"))
    print([cls.__name__ for cls in CompressedCsvExporter.__mro__])


main()
