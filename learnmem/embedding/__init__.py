"""Text embeddings: the Embedder protocol, the local ONNX model built from its weights, and long texts cut into passages."""
