"""The tournament service: its aggregate, application, listing, clock keeper and bot runs."""
