"""The typed contract: pydantic models, the OpenAPI document, error codes and the generated references."""
