"""The dashboard's pages, one Streamlit script each (run through ``st.navigation`` in app.py)."""
