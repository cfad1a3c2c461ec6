"""Host application that only touches the plugin package's public, re-exported API."""
import plugins
from plugins import DefaultPlugin, get_plugin, run_all


def main():
    data = [(2, "b"), (1, "a")]
    print(run_all(data))
    print(DefaultPlugin().export(data))
    print(get_plugin("csv", sep=";").export(data))
    print(sorted(plugins.registry), plugins.__all__)


if __name__ == "__main__":
    main()
