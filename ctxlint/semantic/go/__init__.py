"""The Go semantic layer: control-flow graph, escape of values, ctx-in-scope facts."""
