"""Thin Airflow adapters for studybench: the checkpoint watcher trigger, the "MLflow run"
extra link and the evaluation task wiring shared by the evaluation DAGs.

Airflow puts the plugins folder on ``sys.path``, so DAG files import ``studybench_airflow``
and the triggerer can import the trigger (triggers defined in the dags folder cannot be).
After changing code here, restart the dag-processor and the triggerer.
"""
