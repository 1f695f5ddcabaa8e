"""The read side: the projection runner, read-model stores and what the API reads from them."""
