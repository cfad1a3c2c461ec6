"""The imports of Go and Java files, as Import records, for learnmem.code.localresolve to follow into the project.

Go: `import r "github.com/gin-gonic/gin/render"` binds `r` (else the path's last part, `render`) to the package
of that path: Import(local="r", module="github.com/gin-gonic/gin/render", name=""). Blank (`_`) and dot (`.`)
imports bind no name and are skipped.

Java: `import a.b.C;` binds `C` to the class: Import(local="C", module="a.b", name="C"); `import static a.b.C.m;`
binds `m` to the member: Import(local="m", module="a.b.C", name="m"). Wildcard imports (`a.b.*`) name nothing
and are skipped.
"""

from __future__ import annotations

from tree_sitter import Node

from learnmem.code.model import Import


def package_imports(root: Node, language: str) -> list[Import]:
    """Every name a Go or Java file's imports bind (see the module docstring); [] for other languages."""
    if language == "go":
        return [found for spec in _go_specs(root) for found in [_go_import(spec)] if found]
    if language == "java":
        return [found for node in root.named_children if node.type == "import_declaration"
                for found in [_java_import(node)] if found]
    return []


def _go_specs(root: Node) -> list[Node]:
    """A Go file's import specs: its import declarations sit at the top, one spec or a list of them each."""
    found = []
    for declaration in root.named_children:
        if declaration.type == "import_declaration":
            for child in declaration.named_children:
                specs = child.named_children if child.type == "import_spec_list" else [child]
                found.extend(spec for spec in specs if spec.type == "import_spec")
    return found


def _go_import(spec: Node) -> Import | None:
    path_node, name_node = spec.child_by_field_name("path"), spec.child_by_field_name("name")
    if path_node is None:
        return None
    path = _text(path_node).strip('"`')
    if name_node is not None:
        local = _text(name_node)
        if local in ("_", "."):
            return None
    else:
        local = path.rsplit("/", 1)[-1]
    return Import(local, path, "", spec.start_point.row + 1)


def _java_import(declaration: Node) -> Import | None:
    if any(child.type == "asterisk" for child in declaration.named_children):
        return None
    named = [child for child in declaration.named_children if child.type in ("scoped_identifier", "identifier")]
    if not named:
        return None
    scope, _, name = _text(named[0]).rpartition(".")
    if not scope:
        return None
    return Import(name, scope, name, declaration.start_point.row + 1)


def _text(node: Node) -> str:
    return "".join(node.text.decode("utf-8", errors="replace").split())
