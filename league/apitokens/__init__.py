"""Personal API tokens: a logged-in user names, scopes and revokes them on
/accounts/tokens/; the API's write endpoints (``endpoints.py``) act as the token's
user, through the same services as the site, within each token's scopes."""
