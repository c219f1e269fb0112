"""``{% layer_panels "league_detail" %}``: what the league's layers add to a page."""

from django import template

from league import layers

register = template.Library()


@register.simple_tag(takes_context=True)
def layer_panels(context, page: str):
    return layers.render_panels(page, context.flatten())
