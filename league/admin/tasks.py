"""The task queue's record (league/outbox/tasks.py), for superusers only: each mail and
webhook attempt, sent or failed with the reason (its traceback). Organisers never
see it: it holds every league's addresses and messages."""

from django.contrib import admin
from django_tasks_db.admin import DBTaskResultAdmin
from django_tasks_db.models import DBTaskResult


class SuperuserTaskResultAdmin(DBTaskResultAdmin):
    list_display = ("task_name", "status", "enqueued_at", "run_after", "finished_at", "return_value", "exception_class_path")
    search_fields = ["task_path", "exception_class_path"]

    def has_module_permission(self, request):
        return request.user.is_active and request.user.is_superuser

    def has_view_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_superuser


admin.site.unregister(DBTaskResult)
admin.site.register(DBTaskResult, SuperuserTaskResultAdmin)
