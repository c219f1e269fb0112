from django.shortcuts import render

from league.models import League


def league_list(request):
    return render(request, "league/league_list.html", {"leagues": League.objects.all()})
