//! Token-bucket rate limiting for the API gateway.
