from django.urls import path

app_name = "campaigns"

urlpatterns: list = []
